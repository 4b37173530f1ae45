/**
 * `coverage-service-client` (also exported by the server package as `coverage-service/client`): the
 * typed client and the types of every request and answer. It has no dependencies; its types come from
 * the server's TypeBox schemas through ./api-types.ts.
 */
export { CoverageClient, type CoverageClientOptions } from './coverage-client.ts';
export { CoverageApiError, type ApiErrorCode, type FieldError } from './errors.ts';
export type * from './api-types.ts';
