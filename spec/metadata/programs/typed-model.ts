// Types of the application in typed-app.ts: a class with a schema, plain classes, a string and a numeric enum, an
// interface, and a class made from one string (a parameter converter by constructor).
import { z } from 'zod';

export class Fruit {
  static readonly schema = z.object({ name: z.string() });
  name = '';

  loud(): string {
    return this.name.toUpperCase();
  }
}

export class Item {
  name = '';
}

export enum Color {
  Red = 'red',
  Green = 'green',
}

export enum Level {
  Low = 1,
  High = 2,
}

export interface Shape {
  readonly sides: number;
}

/** Made from a query parameter by its constructor, when its class is imported as a value. */
export class Code {
  constructor(readonly text: string) {}
}
