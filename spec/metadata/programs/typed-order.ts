// A body class whose field types are imported as types only: `tsc` records such a field as `Function`, a transpiler
// that sees one file at a time as `Object`.
import { JsonProperty } from '../../../lib';
import type { Item } from './typed-model';

export class Order {
  @JsonProperty()
  item!: Item;

  @JsonProperty()
  placed!: Date;
}
