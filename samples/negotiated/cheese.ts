/** The negotiation example's entity: JSON `{name}`, or `Cheese: <name>` as text. */
export class Cheese {
  name = '';

  static of(name: string): Cheese {
    return Object.assign(new Cheese(), { name });
  }

  toString(): string {
    return `Cheese: ${this.name}`;
  }
}
