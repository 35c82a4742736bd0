/** Writes a `Cheese` as `text/plain` (`Cheese: <name>`), a custom MessageBodyWriter. */
import { Produces, Provider, type MessageBodyWriter } from '../../lib';
import { Cheese } from './cheese';

@Provider()
@Produces('text/plain')
export class CheeseTextWriter implements MessageBodyWriter<Cheese> {
  isWriteable(type: Function | undefined): boolean {
    return type === Cheese;
  }

  writeTo(cheese: Cheese): string {
    return cheese.toString();
  }
}
