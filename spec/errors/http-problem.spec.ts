import { ErrorCodes, WebApplicationException, type ErrorCode } from '../../lib';
import { httpProblem } from '../../lib/errors/http-problem';

describe('httpProblem', () => {
  it.each(Object.keys(ErrorCodes) as ErrorCode[])('makes %s an exception with its status and problem', (code) => {
    const error = httpProblem(code, 'detail');
    expect(error).toBeInstanceOf(WebApplicationException);
    expect(error.status).toBe(ErrorCodes[code].status);
    expect(error.problem).toMatchObject({ code, status: ErrorCodes[code].status, detail: 'detail' });
  });
});
