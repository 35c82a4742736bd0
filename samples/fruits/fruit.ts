/** The Fruit of the reference examples, validated by its zod schema. */
import { z } from 'zod';

export class Fruit {
  /** The request body is checked against this before it becomes a Fruit: bounded, since anyone may post one. */
  static readonly schema = z.object({
    name: z.string().min(1, 'a fruit needs a name').max(64, 'a fruit name has at most 64 characters'),
    description: z.string().max(256, 'a description has at most 256 characters').optional(),
  });

  name = '';
  description?: string;
}
