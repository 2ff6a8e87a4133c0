import { Schema } from "effect"
import { withoutNul } from "./StorableText.ts"

/**
 * The wire contract of the OAuth 2.1 authorization server: metadata (RFC 8414), dynamic client
 * registration (RFC 7591), token responses and errors (RFC 6749 §5). OAuth clients parse these
 * shapes themselves, so errors here are RFC 6749 JSON, not problem documents.
 */

export const OAuthPaths = {
  metadata: "/.well-known/oauth-authorization-server",
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
  revoke: "/oauth/revoke"
} as const

/** The one scope: act on the caller's behalf on the MCP server. */
export const McpScope = "mcp"

export const ApplicationType = Schema.Literal("native", "web")
export type ApplicationType = typeof ApplicationType.Type

export const TokenEndpointAuthMethod = Schema.Literal("none", "client_secret_post", "client_secret_basic")
export type TokenEndpointAuthMethod = typeof TokenEndpointAuthMethod.Type

export const GrantType = Schema.Literal("authorization_code", "refresh_token")
export type GrantType = typeof GrantType.Type

export const AuthorizationServerMetadata = Schema.Struct({
  issuer: Schema.String,
  authorization_endpoint: Schema.String,
  token_endpoint: Schema.String,
  registration_endpoint: Schema.String,
  revocation_endpoint: Schema.String,
  scopes_supported: Schema.Array(Schema.String),
  response_types_supported: Schema.Array(Schema.Literal("code")),
  response_modes_supported: Schema.Array(Schema.Literal("query")),
  grant_types_supported: Schema.Array(GrantType),
  code_challenge_methods_supported: Schema.Array(Schema.Literal("S256")),
  token_endpoint_auth_methods_supported: Schema.Array(TokenEndpointAuthMethod),
  revocation_endpoint_auth_methods_supported: Schema.Array(TokenEndpointAuthMethod),
  authorization_response_iss_parameter_supported: Schema.Boolean,
  service_documentation: Schema.String
}).annotations({ identifier: "AuthorizationServerMetadata" })
export type AuthorizationServerMetadata = typeof AuthorizationServerMetadata.Type

/**
 * Client metadata as registered. Optional fields that the client did not send stay absent (never
 * null); `application_type`, `grant_types`, `response_types` and `token_endpoint_auth_method` always
 * hold a value, defaulted by the server where RFC 7591 names a default.
 */
export const ClientMetadata = Schema.Struct({
  redirect_uris: Schema.NonEmptyArray(Schema.String),
  application_type: ApplicationType,
  token_endpoint_auth_method: TokenEndpointAuthMethod,
  grant_types: Schema.NonEmptyArray(GrantType),
  response_types: Schema.NonEmptyArray(Schema.Literal("code")),
  client_name: Schema.optional(Schema.String),
  client_uri: Schema.optional(Schema.String),
  logo_uri: Schema.optional(Schema.String),
  tos_uri: Schema.optional(Schema.String),
  policy_uri: Schema.optional(Schema.String),
  scope: Schema.optional(Schema.String),
  contacts: Schema.optional(Schema.Array(Schema.String)),
  software_id: Schema.optional(Schema.String),
  software_version: Schema.optional(Schema.String)
}).annotations({ identifier: "ClientMetadata" })
export type ClientMetadata = typeof ClientMetadata.Type

/** At most `max` characters, and storable (see `withoutNul`). */
const bounded = (max: number) => withoutNul(Schema.String.pipe(Schema.maxLength(max)))

/**
 * Text the consent page and the operator's lists show as the client declared it: no control,
 * invisible or bidirectional formatting characters, which would make it read as something else (a
 * right-to-left override turns "gro.live" into "evil.org").
 */
const shown = (max: number) =>
  bounded(max).pipe(
    Schema.filter((text) => !/[\p{Cc}\p{Cf}\u2028\u2029]/u.test(text), {
      message: () => "must not hold control, invisible or bidirectional formatting characters"
    })
  )

/**
 * A registration request (RFC 7591 §2) as accepted: sizes are capped, `application_type` is
 * optional and defaults to `web` (OpenID Connect Dynamic Client Registration §2), unknown members
 * are ignored. Redirect URI rules are checked after decoding.
 */
export const ClientRegistrationRequest = Schema.Struct({
  redirect_uris: Schema.Array(bounded(2048)).pipe(Schema.minItems(1), Schema.maxItems(10)),
  application_type: Schema.optionalWith(ApplicationType, { default: () => "web" as const }),
  token_endpoint_auth_method: Schema.optional(TokenEndpointAuthMethod),
  grant_types: Schema.optional(Schema.NonEmptyArray(GrantType)),
  response_types: Schema.optional(Schema.NonEmptyArray(Schema.Literal("code"))),
  client_name: Schema.optional(shown(200)),
  client_uri: Schema.optional(bounded(2048)),
  logo_uri: Schema.optional(bounded(2048)),
  tos_uri: Schema.optional(bounded(2048)),
  policy_uri: Schema.optional(bounded(2048)),
  scope: Schema.optional(bounded(1000)),
  contacts: Schema.optional(Schema.Array(bounded(320)).pipe(Schema.maxItems(10))),
  software_id: Schema.optional(shown(200)),
  software_version: Schema.optional(shown(100))
}).annotations({ identifier: "ClientRegistrationRequest" })

/** The registration response (RFC 7591 §3.2.1): credentials plus exactly the registered metadata. */
export const ClientRegistrationResponse = Schema.Struct({
  client_id: Schema.String,
  client_id_issued_at: Schema.Int,
  client_secret: Schema.optional(Schema.String),
  client_secret_expires_at: Schema.optional(Schema.Int),
  ...ClientMetadata.fields
}).annotations({ identifier: "ClientRegistrationResponse" })
export type ClientRegistrationResponse = typeof ClientRegistrationResponse.Type

export const TokenResponse = Schema.Struct({
  access_token: Schema.String,
  token_type: Schema.Literal("Bearer"),
  expires_in: Schema.Int,
  scope: Schema.String,
  refresh_token: Schema.optional(Schema.String)
}).annotations({ identifier: "TokenResponse" })
export type TokenResponse = typeof TokenResponse.Type

/** Error codes of RFC 6749 §4.1.2.1 and §5.2, RFC 7591 §3.2.2, RFC 8707 and RFC 7009. */
export const OAuthErrorCode = Schema.Literal(
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "unsupported_response_type",
  "unsupported_token_type",
  "invalid_scope",
  "invalid_target",
  "access_denied",
  "server_error",
  "temporarily_unavailable",
  "invalid_redirect_uri",
  "invalid_client_metadata"
)
export type OAuthErrorCode = typeof OAuthErrorCode.Type

export const OAuthErrorBody = Schema.Struct({
  error: OAuthErrorCode,
  error_description: Schema.optional(Schema.String)
}).annotations({ identifier: "OAuthErrorBody" })
