/** The six request elements of `POST /cheeses/bean/{type}`, grouped in a bean parameter class. */
import { RestCookie, RestForm, RestHeader, RestMatrix, RestPath, RestQuery } from '../../lib';

export class CheeseParams {
  @RestPath()
  type!: string;

  @RestMatrix()
  variant!: string;

  @RestQuery()
  age!: string;

  @RestCookie()
  level!: string;

  @RestHeader('X-Cheese-Secret-Handshake')
  secretHandshake!: string;

  @RestForm()
  smell!: string;

  describe(): string {
    return `${this.type}/${this.variant}/${this.age}/${this.level}/${this.secretHandshake}/${this.smell}`;
  }
}
