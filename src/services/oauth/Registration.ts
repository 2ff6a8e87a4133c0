import { Either, ParseResult, Schema } from "effect"
import { type ApplicationType, ClientMetadata, ClientRegistrationRequest } from "../../domain/OAuth.ts"
import { type OAuthFailure, oauthFailure } from "./OAuthFailure.ts"

const isLoopbackHost = (hostname: string) =>
  hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname)

export const isLoopbackHttp = (url: URL): boolean => url.protocol === "http:" && isLoopbackHost(url.hostname)

/** RFC 8252 §7.1: a private-use scheme names a domain the app controls, reversed (`com.example.app:`). */
const isPrivateUseScheme = (url: URL) => /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol)

/**
 * Why a redirect URI cannot be registered, or undefined when it can: https anywhere, plain http only
 * on loopback addresses, and for native applications a reverse-domain private-use scheme; never a
 * fragment, embedded credentials or characters outside printable ASCII.
 */
export const redirectUriProblem = (raw: string, applicationType: ApplicationType): string | undefined => {
  // the WHATWG parser drops tabs and line breaks and encodes the rest, so such a URI would be matched
  // as registered and then redirected to as repaired: a URI nobody registered
  if (/[^\x21-\x7e]/.test(raw)) {
    return `${JSON.stringify(raw)} holds a space, control or non-ASCII character (percent-encode it)`
  }
  if (!URL.canParse(raw)) return `${raw} is not an absolute URI`
  const url = new URL(raw)
  // the WHATWG parser repairs `https:///cb` into `https://cb/` and reads `\` as `/`; a registered URI
  // must name its host itself, as the redirect will be compared with what the client sends
  if (raw.includes("\\")) return `${raw} contains a backslash`
  if ((url.protocol === "https:" || url.protocol === "http:") && !/^https?:\/\/[^/?#]/i.test(raw)) {
    return `${raw} has no host`
  }
  if (raw.includes("#")) return `${raw} has a fragment`
  if (url.username !== "" || url.password !== "") return `${raw} embeds credentials`
  if (url.protocol === "https:") return url.hostname === "" ? `${raw} has no host` : undefined
  if (url.protocol === "http:") return isLoopbackHttp(url) ? undefined : `${raw} uses http on a non-loopback host`
  if (applicationType === "native" && isPrivateUseScheme(url)) return undefined
  return `${raw} uses a scheme this server does not redirect to (https, http on loopback, or for native apps a reverse-domain scheme)`
}

const webUriFields = ["client_uri", "logo_uri", "tos_uri", "policy_uri"] as const

const describe = (error: ParseResult.ParseError) =>
  ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) =>
    `${issue.path.length > 0 ? issue.path.join(".") : "body"}: ${issue.message}`
  )

/**
 * RFC 7591 validation of a registration request into the metadata to register. RFC 7591 defaults
 * are filled in (they are registered values, returned to the client); optional fields that were not
 * sent stay absent. Empty strings for the informational URIs count as not sent.
 */
export const validateRegistration = (input: unknown): Either.Either<ClientMetadata, OAuthFailure> => {
  const body = typeof input === "object" && input !== null ? { ...input as Record<string, unknown> } : input
  if (typeof body === "object" && body !== null) {
    for (const field of webUriFields) if ((body as Record<string, unknown>)[field] === "") delete (body as any)[field]
  }
  const decoded = Schema.decodeUnknownEither(ClientRegistrationRequest)(body, { onExcessProperty: "ignore" })
  if (Either.isLeft(decoded)) {
    const issues = describe(decoded.left)
    const code = issues.every((issue) => issue.startsWith("redirect_uris"))
      ? "invalid_redirect_uri"
      : "invalid_client_metadata"
    return Either.left(oauthFailure(code, issues.join("; ")))
  }
  const request = decoded.right
  const redirectProblems = request.redirect_uris.flatMap((uri) =>
    redirectUriProblem(uri, request.application_type) ?? []
  )
  if (redirectProblems.length > 0) return Either.left(oauthFailure("invalid_redirect_uri", redirectProblems.join("; ")))
  for (const field of webUriFields) {
    const value = request[field]
    if (value !== undefined && !(URL.canParse(value) && new URL(value).protocol === "https:")) {
      return Either.left(oauthFailure("invalid_client_metadata", `${field} must be an https URL`))
    }
  }
  const grantTypes = request.grant_types ?? ["authorization_code"]
  if (!grantTypes.includes("authorization_code")) {
    return Either.left(oauthFailure("invalid_client_metadata", "grant_types must include authorization_code"))
  }
  return Either.right(ClientMetadata.make({
    ...request,
    redirect_uris: [request.redirect_uris[0]!, ...request.redirect_uris.slice(1)],
    token_endpoint_auth_method: request.token_endpoint_auth_method ?? "client_secret_basic",
    grant_types: grantTypes,
    response_types: request.response_types ?? ["code"]
  }))
}
