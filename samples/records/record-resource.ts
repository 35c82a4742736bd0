/** `/records`: web links and HAL, with link targets list, self, update and delete. */
import {
  BadRequestException,
  Consumes,
  Context,
  DELETE,
  GET,
  HalService,
  InjectRestLinks,
  NotFoundException,
  Path,
  Produces,
  PUT,
  RestLink,
  RestLinkType,
  RestMediaType,
  RestPath,
  type HalCollectionWrapper,
} from '../../lib';
import { DataRecord, type RecordUpdate } from './data-record';

@Path('records')
@Produces('application/json', RestMediaType.APPLICATION_HAL_JSON)
export class RecordResource {
  readonly #records: DataRecord[] = [
    new DataRecord(1, 'first', 'First value'),
    new DataRecord(2, 'second', 'Second value'),
  ];

  @GET
  @RestLink({ rel: 'list', entityType: DataRecord })
  @InjectRestLinks()
  list(): DataRecord[] {
    return this.#records;
  }

  // A literal segment beats a template variable, so this is never taken for /records/{id}.
  @GET
  @Path('hal-wrapped')
  wrapped(@Context() hal: HalService): HalCollectionWrapper<DataRecord> {
    return hal
      .toHalCollectionWrapper(this.#records, 'records', DataRecord)
      .addLinks({ href: '/records/1', rel: 'first-record' });
  }

  @GET
  @Path('{id}')
  @RestLink({ rel: 'self' })
  @InjectRestLinks(RestLinkType.INSTANCE)
  get(@RestPath() id: string): DataRecord {
    return this.#find(id);
  }

  @PUT
  @Path('{id}')
  @Consumes('application/json')
  @RestLink({ rel: 'update' })
  @InjectRestLinks(RestLinkType.INSTANCE)
  update(@RestPath() id: string, change: RecordUpdate): DataRecord {
    const record = this.#find(id);
    // Bounded like every sample input: a record is kept for every later reader.
    if (
      (typeof change?.slug === 'string' && change.slug.length > 64) ||
      (typeof change?.value === 'string' && change.value.length > 1000)
    )
      throw new BadRequestException('A slug has at most 64 characters and a value at most 1,000');
    if (typeof change?.slug === 'string') record.slug = change.slug;
    if (typeof change?.value === 'string') record.value = change.value;
    return record;
  }

  @DELETE
  @Path('{id}')
  @RestLink({ rel: 'delete', entityType: DataRecord })
  delete(@RestPath() id: string): void {
    const record = this.#find(id);
    this.#records.splice(this.#records.indexOf(record), 1);
  }

  #find(id: string): DataRecord {
    const record = /^\d+$/.test(id) ? this.#records.find((candidate) => candidate.id === Number(id)) : undefined;
    if (!record) throw new NotFoundException(`No record ${id}`);
    return record;
  }
}
