import type { Grant, OAuthDocument, StoredToken } from "../../domain/Accounts.ts"
import type { TokenResponse } from "../../domain/OAuth.ts"
import { issueSecret } from "../accounts/Secrets.ts"

/** Bearer prefixes: only access tokens carry the public `svc_oauth_` prefix the resource accepts. */
export const Prefix = { access: "svc_oauth_", refresh: "svc_refresh_", code: "svc_code_" } as const

export const Lifetime = {
  accessMillis: 60 * 60 * 1000,
  /** Sliding: each rotation starts a new period. */
  refreshMillis: 30 * 24 * 60 * 60 * 1000,
  codeMillis: 60 * 1000,
  consentMillis: 10 * 60 * 1000,
  /** Revoked connections stay listed this long for the operator, then go. */
  revokedGrantMillis: 30 * 24 * 60 * 60 * 1000
} as const

export const emptyDocument: OAuthDocument = {
  version: 1,
  clients: {},
  grants: {},
  accessTokens: {},
  refreshTokens: {}
}

const keep = <A>(record: Readonly<Record<string, A>>, predicate: (value: A) => boolean) =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => predicate(value)))

/** Drops expired tokens and long-revoked grants; run on every write so the document stays small. */
export const prune = (document: OAuthDocument, now: number): OAuthDocument => ({
  ...document,
  grants: keep(
    document.grants,
    (grant) => grant.revokedAt === undefined || now - grant.revokedAt < Lifetime.revokedGrantMillis
  ),
  accessTokens: keep(document.accessTokens, (token) => token.expiresAt > now),
  refreshTokens: keep(document.refreshTokens, (token) => token.expiresAt > now)
})

/** Ends a connection: the grant is marked revoked and every token issued under it is deleted. */
export const revokeGrants = (
  document: OAuthDocument,
  grantIds: ReadonlySet<string>,
  reason: string,
  now: number
): OAuthDocument => {
  if (grantIds.size === 0) return document
  const grants = { ...document.grants }
  for (const id of grantIds) {
    const grant = grants[id]
    if (grant !== undefined && grant.revokedAt === undefined) {
      grants[id] = { ...grant, revokedAt: now, revokedReason: reason }
    }
  }
  const live = (token: StoredToken) => !grantIds.has(token.grantId)
  return {
    ...document,
    grants,
    accessTokens: keep(document.accessTokens, live),
    refreshTokens: keep(document.refreshTokens, live)
  }
}

/** A fresh access token (and refresh token when the client registered that grant) under `grant`. */
export const issueTokens = (
  document: OAuthDocument,
  grant: Grant,
  withRefresh: boolean,
  now: number
): readonly [TokenResponse, OAuthDocument] => {
  const access = issueSecret(Prefix.access)
  const accessTokens = {
    ...document.accessTokens,
    [access.id]: { grantId: grant.id, secretHash: access.hash, expiresAt: now + Lifetime.accessMillis }
  }
  const response = {
    access_token: access.value,
    token_type: "Bearer" as const,
    expires_in: Lifetime.accessMillis / 1000,
    scope: grant.scopes.join(" ")
  }
  if (!withRefresh) return [response, { ...document, accessTokens }]
  const refresh = issueSecret(Prefix.refresh)
  const refreshTokens = {
    ...document.refreshTokens,
    [refresh.id]: { grantId: grant.id, secretHash: refresh.hash, expiresAt: now + Lifetime.refreshMillis }
  }
  return [{ ...response, refresh_token: refresh.value }, { ...document, accessTokens, refreshTokens }]
}
