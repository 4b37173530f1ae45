/** The console's sign-in calls (/console/session): one schema for validation, serialization and OpenAPI. */
import { Type, type Static } from 'typebox';

export const ConsoleSignIn = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    totp: Type.Optional(Type.String({ maxLength: 16, description: 'The 6-digit code of the authenticator app, for users enrolled in TOTP' })),
  },
  { additionalProperties: false },
);
export type ConsoleSignIn = Static<typeof ConsoleSignIn>;

export const ConsoleSession = Type.Object({
  username: Type.String(),
  env: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]),
  idle_timeout_seconds: Type.Integer({ description: 'The session ends after this long without a request' }),
  idle_expires_at: Type.String({ description: 'When the session ends if no request comes first' }),
  expires_at: Type.String({ description: 'When the session ends whatever the activity' }),
});
export type ConsoleSession = Static<typeof ConsoleSession>;

export const ConsoleSignedOut = Type.Object({
  error_code: Type.String(),
  message: Type.String(),
  request_id: Type.String(),
  env: Type.Union([Type.Literal('sandbox'), Type.Literal('production')], { description: "The server's mode, which the console shows on every screen" }),
  users_configured: Type.Boolean({ description: 'Whether anyone can sign in to this server (users of its mode exist)' }),
  api_key_allowed: Type.Boolean({ description: 'Sandbox with no users yet: the console may use an API key instead' }),
  sso_label: Type.Union([Type.String(), Type.Null()], {
    description: "The words of the button that signs in through the organization's identity provider; null without one",
  }),
});
export type ConsoleSignedOut = Static<typeof ConsoleSignedOut>;
