/**
 * Fastify compiles every route's validators and serializers at start-up, and most routes (monitors,
 * webhooks, batches, the console's) are called rarely or never by a given instance. These factories
 * wrap Fastify's own (the same Ajv and fast-json-stringify compilers with the same options), so each
 * route's functions compile at its first request instead. A schema fault then shows at that request
 * rather than at start; the suite calls every route (openapi-check.ts).
 */
import ValidatorSelector from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Validate = ((data: unknown) => unknown) & { errors?: unknown };

/**
 * Fastify reads a failed validation's errors from the function's `errors` (as Ajv leaves them), and
 * passes Ajv functions the request as parent data only to let them rewrite the root value: our Ajv
 * options coerce, default and remove nothing (ajv.ts), so the wrapper is called with the data alone.
 */
function lazyValidator(compile: () => Validate): Validate {
  let compiled: Validate | null = null;
  const validate: Validate = (data) => {
    compiled ??= compile();
    const result = compiled(data);
    validate.errors = compiled.errors;
    return result;
  };
  validate.errors = null;
  return validate;
}

function lazySerializer(compile: () => (doc: unknown) => string): (doc: unknown) => string {
  let compiled: ((doc: unknown) => string) | null = null;
  return (doc) => (compiled ??= compile())(doc);
}

export function lazyCompilers(): Factories {
  const validators = ValidatorSelector();
  const serializers = SerializerSelector();
  return {
    buildValidator: ((externalSchemas: unknown, options: unknown) => {
      const compiler = (validators as (...a: unknown[]) => (route: unknown) => Validate)(externalSchemas, options);
      return (route: unknown) => lazyValidator(() => compiler(route));
    }) as Factories['buildValidator'],
    buildSerializer: ((externalSchemas: unknown, options: unknown) => {
      const compiler = (serializers as (...a: unknown[]) => (route: unknown) => (doc: unknown) => string)(externalSchemas, options);
      return (route: unknown) => lazySerializer(() => compiler(route));
    }) as Factories['buildSerializer'],
  };
}
