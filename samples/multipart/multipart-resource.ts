/** `/multipart`: a form with text, file and JSON parts in; every part summarised; a multipart answer out. */
import {
  Consumes,
  FileUpload,
  GET,
  MultipartFormDataInput,
  MultipartFormDataOutput,
  PartType,
  Path,
  POST,
  Produces,
  RestForm,
} from '../../lib';
import { Person } from './person';

@Path('multipart')
export class MultipartResource {
  @POST
  @Consumes('multipart/form-data')
  @Produces('application/json')
  upload(
    @RestForm() description: string,
    @RestForm('image') image: FileUpload,
    @RestForm() @PartType('application/json') person: Person,
  ) {
    return {
      description,
      image: image && { fileName: image.fileName, size: image.size, contentType: image.contentType },
      person,
    };
  }

  @POST
  @Path('all')
  @Consumes('multipart/form-data')
  @Produces('application/json')
  all(input: MultipartFormDataInput) {
    return input.summaries();
  }

  @GET
  @Path('person')
  @Produces('multipart/form-data')
  person(): MultipartFormDataOutput {
    const output = new MultipartFormDataOutput();
    output.addFormData(
      'person',
      Object.assign(new Person(), { firstName: 'Ada', lastName: 'Lovelace' }),
      'application/json',
    );
    output.addFormData('note', 'The first programmer', 'text/plain').addHeader('X-Part', '1');
    return output;
  }
}

export const multipartSampleClasses: Function[] = [MultipartResource];
