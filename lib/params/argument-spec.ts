/** What compiling one parameter takes and gives: the parameter's facts, and the function that reads its value. */
import type { ParamMeta, Tags } from '../metadata/store';
import type { RequestContext } from '../context/request-context';
import type { PathTemplate } from '../routing/path-template';
import type { BodySettings } from '../multipart/body-settings';

/** Async only for body and form values. */
export type ArgumentReader = (ctx: RequestContext) => unknown;

export interface ArgumentSpec {
  readonly meta: ParamMeta;
  readonly name: string | undefined;
  readonly designType: unknown;
  readonly settings: BodySettings;
  /** The endpoint's path template: a path parameter is read by the capture group of its variable. */
  readonly template: PathTemplate;
  /** More tags to read options from (a bean property's own tags); the parameter's win. */
  readonly extraTags?: Tags;
  /** Bean classes being compiled, to refuse a bean that contains itself. */
  readonly beans?: readonly Function[];
}
