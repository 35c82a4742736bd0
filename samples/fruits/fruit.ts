/** The Fruit of the reference examples, validated by its zod schema. */
import { z } from 'zod';

export class Fruit {
  /** The request body is checked against this before it becomes a Fruit. */
  static readonly schema = z.object({
    name: z.string().min(1, 'a fruit needs a name'),
    description: z.string().optional(),
  });

  name = '';
  description?: string;
}
