import { Config, type ConfigError, Either, Redacted } from "effect"
import { bundled as bundledSkills, parseSkillsSource } from "../skills/Source.ts"
import { absoluteUrl, checked, integerIn, invalid, oneOf, optionalText, url } from "./Rules.ts"
import { type DatabaseSsl, maxTrustedProxies, ServiceJwtAlgorithms, type TrustProxy } from "./Shape.ts"

/** The `LOG_LEVEL` names the logger knows; anything else stops start-up. */
export const LogLevelNames = ["all", "trace", "debug", "info", "warn", "warning", "error", "fatal", "none"] as const

/**
 * `RENDER_BACKEND_SECRET`, shared by an instance and its rendering backend: long enough that guessing
 * is hopeless (e.g. `openssl rand -base64 32`). Read by `ecds render-backend` on its own as well.
 */
export const renderBackendSecret = checked(
  "RENDER_BACKEND_SECRET",
  (text) =>
    text.trim().length >= 32 && /^[\x21-\x7e]+$/.test(text.trim())
      ? Either.right(Redacted.make(text.trim()))
      : invalid("must be at least 32 printable characters without spaces (e.g. `openssl rand -base64 32`)")
)

/**
 * `TRUST_PROXY`: how many appending proxies stand in front, or `cloudflare`. The values of the
 * earlier boolean read safely: off stays off, and `true`/`yes`/`on` mean one proxy, so an old
 * setting never again takes an address the client wrote (behind two proxies it counts every
 * client as the outer one's address until the operator sets `2`).
 */
const trustProxyRule = (text: string): Either.Either<TrustProxy, ConfigError.ConfigError> => {
  const value = text.trim().toLowerCase()
  if (value === "" || value === "false" || value === "no" || value === "off") return Either.right(0)
  if (value === "true" || value === "yes" || value === "on") return Either.right(1)
  if (value === "cloudflare") return Either.right("cloudflare")
  return /^\d{1,2}$/.test(value) && Number(value) <= maxTrustedProxies
    ? Either.right(Number(value))
    : invalid(
      `must be the number of proxies in front that append to X-Forwarded-For (0 to ${maxTrustedProxies}), ` +
        "or cloudflare to read CF-Connecting-IP (unset: 0, the peer address)"
    )
}

/** Stage one: every variable on its own, so that all mistakes are reported together. */
export const variables = Config.all({
  port: integerIn("PORT", 0, 65535, 8787, "a TCP port from 0 to 65535 (0 picks a free one)"),
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  requestTimeoutSeconds: integerIn("REQUEST_TIMEOUT_SECONDS", 1, 3_600, 60, "seconds from 1 to 3600 (an hour)"),
  deployment: oneOf("DEPLOYMENT", ["public", "enclave"], "public"),
  publicBaseUrl: Config.option(absoluteUrl("PUBLIC_BASE_URL")),
  authUrl: Config.option(absoluteUrl("AUTH_URL")),
  dataDir: Config.string("DATA_DIR").pipe(Config.withDefault("./.data")),
  databaseUrl: Config.option(checked("DATABASE_URL", (text) =>
    /^postgres(ql)?:\/\/./.test(text.trim())
      ? Either.right(Redacted.make(text.trim()))
      : invalid("must be a postgres:// or postgresql:// URL (unset: the embedded database under DATA_DIR)"))),
  databasePoolSize: integerIn("DATABASE_POOL_SIZE", 1, 100, 10),
  databaseStatementTimeoutMillis: integerIn(
    "DATABASE_STATEMENT_TIMEOUT_MS",
    100,
    Number.MAX_SAFE_INTEGER,
    10_000,
    "milliseconds, at least 100"
  ),
  databaseConnectTimeoutMillis: integerIn(
    "DATABASE_CONNECT_TIMEOUT_MS",
    100,
    Number.MAX_SAFE_INTEGER,
    5_000,
    "milliseconds, at least 100"
  ),
  databasePreparedStatements: oneOf("DATABASE_PREPARED_STATEMENTS", ["on", "off"], "on"),
  databaseSsl: Config.option(checked("DATABASE_SSL", (text) => {
    const value = text.trim().toLowerCase()
    return value === "disable" || value === "require" || value === "verify-full"
      ? Either.right(value as DatabaseSsl)
      : invalid("must be one of disable, require, verify-full (unset: as DATABASE_URL says)")
  })),
  databaseSslCaFile: optionalText("DATABASE_SSL_CA_FILE"),
  redisUrl: Config.option(checked("REDIS_URL", (text) =>
    /^rediss?:\/\/./.test(text.trim())
      ? Either.right(Redacted.make(text.trim()))
      : invalid("must be a redis:// or rediss:// URL (unset: the rate limit is kept in memory)"))),
  redisKeyPrefix: checked("REDIS_KEY_PREFIX", (text) =>
    /^[\x21-\x7e]{1,64}$/.test(text)
      ? Either.right(text)
      : invalid("must be 1 to 64 printable characters without spaces (unset: ecds:ratelimit:)")).pipe(
      Config.withDefault("ecds:ratelimit:")
    ),
  ecfrBaseUrl: url("ECFR_BASE_URL", "https://www.ecfr.gov"),
  cslBulkUrl: url(
    "CSL_BULK_URL",
    "https://data.trade.gov/downloadable_consolidated_screening_list/v1/consolidated.json"
  ),
  cslFile: optionalText("CSL_FILE"),
  federalRegisterBaseUrl: url("FEDERAL_REGISTER_BASE_URL", "https://www.federalregister.gov"),
  secEdgarBaseUrl: url("SEC_EDGAR_BASE_URL", "https://efts.sec.gov"),
  govinfoBaseUrl: url("GOVINFO_BASE_URL", "https://api.govinfo.gov"),
  regulationsBaseUrl: url("REGULATIONS_BASE_URL", "https://api.regulations.gov"),
  dojBaseUrl: url("DOJ_BASE_URL", "https://www.justice.gov"),
  courtListenerBaseUrl: url("COURTLISTENER_BASE_URL", "https://www.courtlistener.com"),
  bisBaseUrl: url("BIS_BASE_URL", "https://www.bis.gov"),
  ddtcBaseUrl: url("DDTC_BASE_URL", "https://www.pmddtc.state.gov"),
  enforcementCollectorContact: Config.option(checked("ENFORCEMENT_COLLECTOR_CONTACT", (text) => {
    const value = text.trim()
    return /\S+@\S+\.\S+/.test(value) && value.length <= 200 && /^[\x20-\x7e]+$/.test(value)
      ? Either.right(value)
      : invalid(
        "must name the operator and a contact e-mail, e.g. \"Acme Corp ops@acme.example\" (unset: no collection)"
      )
  })),
  enforcementRequestSpacingMillis: integerIn(
    "ENFORCEMENT_REQUEST_SPACING_MS",
    0,
    600_000,
    2_000,
    "milliseconds from 0 to 600000"
  ),
  secEdgarUserAgent: Config.option(checked("SEC_EDGAR_USER_AGENT", (text) => {
    const value = text.trim()
    return /\S+@\S+\.\S+/.test(value) && value.length <= 200
      ? Either.right(value)
      : invalid(
        "must name the operator and a contact e-mail, e.g. \"Acme Corp ops@acme.example\" (unset: EDGAR search off)"
      )
  })),
  dataGovApiKey: Config.option(Config.redacted("DATA_GOV_API_KEY")),
  skillsSource: checked("SKILLS_SOURCE", (text) => {
    const source = parseSkillsSource(text)
    return source === undefined
      ? invalid("use `bundled` or `github:owner/repo@ref` (unset: bundled)")
      : Either.right(source)
  }).pipe(Config.withDefault(bundledSkills)),
  githubApiBaseUrl: url("GITHUB_API_BASE_URL", "https://api.github.com"),
  githubRawBaseUrl: url("GITHUB_RAW_BASE_URL", "https://raw.githubusercontent.com"),
  skillsGithubToken: Config.option(Config.redacted("SKILLS_GITHUB_TOKEN")),
  logLevel: oneOf("LOG_LEVEL", LogLevelNames, "info"),
  rateLimitPerMinute: integerIn("RATE_LIMIT_PER_MINUTE", 0, 1_000_000, 120, "an integer >= 0 (0 turns the limit off)"),
  upstreamDeadlineSeconds: integerIn("UPSTREAM_DEADLINE_SECONDS", 1, 120, 8, "whole seconds from 1 to 120"),
  trustProxy: checked("TRUST_PROXY", trustProxyRule).pipe(Config.withDefault(0 as TrustProxy)),
  oauthSignInFreeAttempts: integerIn("OAUTH_SIGNIN_FREE_ATTEMPTS", 0, 1000, 10, "an integer from 0 (off) to 1000"),
  oauthSignInAddressFreeAttempts: integerIn(
    "OAUTH_SIGNIN_ADDRESS_FREE_ATTEMPTS",
    0,
    100_000,
    30,
    "an integer from 0 (off) to 100000"
  ),
  oauthSignInFirstDelaySeconds: integerIn("OAUTH_SIGNIN_FIRST_DELAY_SECONDS", 1, 3600, 1, "seconds from 1 to 3600"),
  oauthSignInMaxDelaySeconds: integerIn("OAUTH_SIGNIN_MAX_DELAY_SECONDS", 1, 86_400, 900, "seconds from 1 to 86400"),
  oauthSignInWindowSeconds: integerIn("OAUTH_SIGNIN_WINDOW_SECONDS", 60, 86_400, 3600, "seconds from 60 to 86400"),
  oauthRateLimitPerMinute: integerIn(
    "OAUTH_RATE_LIMIT_PER_MINUTE",
    0,
    1_000_000,
    60,
    "an integer >= 0 (0 turns the limit off)"
  ),
  oauthRegistrationsPerHourPerAddress: integerIn(
    "OAUTH_REGISTRATIONS_PER_HOUR_PER_ADDRESS",
    0,
    1_000_000,
    10,
    "an integer >= 0 (0 turns the limit off)"
  ),
  oauthRegistrationsPerHour: integerIn(
    "OAUTH_REGISTRATIONS_PER_HOUR",
    0,
    1_000_000,
    200,
    "an integer >= 0 (0 turns the limit off)"
  ),
  oauthMaxClients: integerIn("OAUTH_MAX_CLIENTS", 1, 1_000_000, 5000, "an integer from 1 to 1000000"),
  oauthUnusedClientHours: integerIn("OAUTH_UNUSED_CLIENT_HOURS", 1, 8760, 24, "hours from 1 to 8760"),
  serviceJwtIssuer: optionalText("SERVICE_JWT_ISSUER"),
  serviceJwtAudience: optionalText("SERVICE_JWT_AUDIENCE"),
  serviceJwtJwksUrl: Config.option(absoluteUrl("SERVICE_JWT_JWKS_URL")),
  serviceJwtPublicKeys: optionalText("SERVICE_JWT_PUBLIC_KEYS"),
  serviceJwtAlgorithms: checked("SERVICE_JWT_ALGORITHMS", (list) => {
    const names = list.split(",").map((name) => name.trim()).filter((name) => name !== "")
    return names.length > 0 && names.every((name) => (ServiceJwtAlgorithms as ReadonlyArray<string>).includes(name))
      ? Either.right(names)
      : invalid(`must list only ${ServiceJwtAlgorithms.join(", ")} (unset: RS256,PS256,ES256,EdDSA)`)
  }).pipe(Config.withDefault(["RS256", "PS256", "ES256", "EdDSA"])),
  renderBackendUrl: Config.option(absoluteUrl("RENDER_BACKEND_URL")),
  renderBackendSecret: Config.option(renderBackendSecret),
  pdfLinkTtlSeconds: integerIn("PDF_LINK_TTL_SECONDS", 1, 604_800, 3600, "seconds from 1 to 604800 (7 days)"),
  pdfStoreMaxBytes: integerIn(
    "PDF_STORE_MAX_BYTES",
    1024 * 1024,
    Number.MAX_SAFE_INTEGER,
    512 * 1024 * 1024,
    "a byte count of at least 1048576"
  ),
  creditHoldSeconds: integerIn("CREDIT_HOLD_SECONDS", 1, 86_400, 900, "seconds from 1 to 86400 (a day)"),
  enterprisePlanName: Config.string("ENTERPRISE_PLAN_NAME").pipe(Config.withDefault("Enterprise")),
  enterprisePurchaseUrl: Config.option(absoluteUrl("ENTERPRISE_PURCHASE_URL")),
  enterpriseContact: Config.string("ENTERPRISE_CONTACT").pipe(Config.withDefault("sales@example.com"))
})

export type Variables = Config.Config.Success<typeof variables>
