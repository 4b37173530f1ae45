/**
 * `coverage-service`: the server API (read the configuration from the environment, start the service
 * in process) and everything `coverage-service/client` exports. An app that only calls the API should
 * import `coverage-service/client`, which loads no server code.
 */
export * from './client/index.ts';
export { loadConfig, type Config } from './server/config.ts';
export { startRuntime, type Runtime, type RuntimeOptions } from './server/runtime.ts';
