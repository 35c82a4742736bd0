/** The person of the multipart samples (spec §2): read from a JSON part, written as one. */
export class Person {
  firstName = '';
  lastName = '';
}
