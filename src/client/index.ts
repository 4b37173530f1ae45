/**
 * `coverage-service/client`: the client package, `coverage-service-client` (packages/client/), re-exported
 * so that apps importing it through the server package keep working.
 */
export * from 'coverage-service-client';
