import type { Principal } from "../../src/domain/Principal.ts"

/** Bearer tokens the fixed test Auth layer recognizes (see `principals`). */
export const bearers = {
  apiKey: "svc_live_test_4f1c9a7e2b",
  oauth: "svc_oauth_test_8d2e6b1f0c",
  inactive: "svc_live_test_inactive_77"
} as const

/** For `Auth.layerFixed`: an active API key, a free-tier OAuth user and an inactive key. */
export const principals: Record<string, Principal> = {
  [bearers.apiKey]: { _tag: "ApiKey", keyId: "key_test", status: "active", plan: "enterprise" },
  [bearers.oauth]: { _tag: "OAuthUser", userId: "user_test", clientId: "client_test", tier: "free", scopes: [] },
  [bearers.inactive]: { _tag: "ApiKey", keyId: "key_old", status: "inactive", plan: "enterprise" }
}
