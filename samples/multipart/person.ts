/** The person of the multipart samples: read from a JSON part, written as one. */
export class Person {
  firstName = '';
  lastName = '';
}
