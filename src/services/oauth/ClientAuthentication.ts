import { Either } from "effect"
import type { OAuthClient } from "../../domain/Accounts.ts"
import { secretMatches } from "../accounts/Secrets.ts"
import { type OAuthFailure, oauthFailure } from "./OAuthFailure.ts"

const basicCredentials = (authorization: string | undefined) => {
  const match = authorization === undefined ? null : /^Basic[ ]+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization)
  if (match === null) return undefined
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8")
  const colon = decoded.indexOf(":")
  if (colon < 0) return undefined
  // RFC 6749 §2.3.1: both parts are form-urlencoded before being joined
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " ")),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " "))
    }
  } catch {
    return undefined
  }
}

/** The client_id a token or revocation request names (Basic header first), to look the client up. */
export const presentedClientId = (form: URLSearchParams, authorization: string | undefined): string | undefined =>
  basicCredentials(authorization)?.clientId ?? form.get("client_id") ?? undefined

/**
 * Authenticates the client at the token and revocation endpoints with the method it registered:
 * public clients (`none`) by client_id alone, confidential ones by a secret in the Basic header or
 * the form, never both. Every failure is `invalid_client` (401), whatever was wrong.
 */
export const authenticateClient = (
  form: URLSearchParams,
  authorization: string | undefined,
  findClient: (clientId: string) => OAuthClient | undefined
): Either.Either<OAuthClient, OAuthFailure> => {
  const basic = basicCredentials(authorization)
  const postedSecret = form.get("client_secret") ?? undefined
  const clientId = basic?.clientId ?? form.get("client_id") ?? undefined
  const refused = Either.left(oauthFailure("invalid_client", "client authentication failed", 401))
  if (clientId === undefined || (basic !== undefined && postedSecret !== undefined)) return refused
  if (basic !== undefined && form.has("client_id") && form.get("client_id") !== basic.clientId) return refused
  const client = findClient(clientId)
  if (client === undefined || client.revokedAt !== undefined) return refused
  const method = client.metadata.token_endpoint_auth_method
  const secret = method === "client_secret_basic"
    ? basic?.secret
    : method === "client_secret_post"
    ? postedSecret
    : undefined
  if (method === "none") return basic === undefined && postedSecret === undefined ? Either.right(client) : refused
  if (secret === undefined || client.secretHash === undefined || !secretMatches(secret, client.secretHash)) {
    return refused
  }
  return Either.right(client)
}
