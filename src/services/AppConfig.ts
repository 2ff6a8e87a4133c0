import type { Option } from "effect"
import { Config, ConfigError, ConfigProvider, Context, Effect, Either, Layer, Redacted } from "effect"
import { parseSkillsSource, type SkillsSource } from "./skills/Source.ts"

export type Deployment = "public" | "enclave"

/** Operator configuration, read once at start-up. The environment variable names are a contract. */
export interface AppConfigShape {
  readonly port: number
  readonly host: string
  readonly deployment: Deployment
  readonly publicBaseUrl: string
  readonly authUrl: string
  readonly dataDir: string
  /** Where shared state lives: the embedded database under DATA_DIR, or a PostgreSQL server. */
  readonly database: DatabaseConfig
  /** Redis for the anonymous rate limit across instances; unset → in memory. */
  readonly redisUrl: Option.Option<Redacted.Redacted>
  readonly ecfrBaseUrl: string
  readonly cslBulkUrl: string
  readonly cslFile: Option.Option<string>
  readonly federalRegisterBaseUrl: string
  readonly secEdgarBaseUrl: string
  readonly govinfoBaseUrl: string
  readonly regulationsBaseUrl: string
  readonly dojBaseUrl: string
  /** EDGAR refuses automated clients without a User-Agent naming a contact; unset → EDGAR search is off. */
  readonly secEdgarUserAgent: Option.Option<string>
  readonly dataGovApiKey: Option.Option<Redacted.Redacted>
  readonly skillsSource: SkillsSource
  readonly githubApiBaseUrl: string
  readonly githubRawBaseUrl: string
  readonly skillsGithubToken: Option.Option<Redacted.Redacted>
  readonly logLevel: string
  readonly rateLimitPerMinute: number
  readonly trustProxy: boolean
  /** Enclave deployment: how service JWTs are verified (see `services/ServiceJwt.ts`). */
  readonly serviceJwt: ServiceJwtConfig
  /** A remote rendering backend; unset renders documents in process. */
  readonly renderBackendUrl: Option.Option<string>
  /** How long a document rendered over MCP stays behind its download link. */
  readonly pdfLinkTtlSeconds: number
  /** Cap on the bytes of rendered documents waiting for download. */
  readonly pdfStoreMaxBytes: number
  /** Shown in 402 answers of the document endpoints: how to obtain a key or credits. */
  readonly enterprisePlan: {
    readonly name: string
    readonly purchaseUrl: string
    readonly contact: string
  }
}

export type DatabaseSsl = "disable" | "require" | "verify-full"

export interface DatabaseConfig {
  /** `DATABASE_URL`; unset → the embedded database (PGlite) in `DATA_DIR/db`. */
  readonly url: Option.Option<Redacted.Redacted>
  readonly poolSize: number
  readonly statementTimeoutMillis: number
  readonly connectTimeoutMillis: number
  /** TLS to the server; unset → what the URL's `sslmode` says. */
  readonly ssl: Option.Option<DatabaseSsl>
  /** PEM file of the certificate authorities to trust (`verify-full`). */
  readonly sslCaFile: Option.Option<string>
}

export interface ServiceJwtConfig {
  readonly issuer: Option.Option<string>
  /** Defaults to PUBLIC_BASE_URL. */
  readonly audience: string
  readonly jwksUrl: Option.Option<string>
  /** A JWKS document (JSON) or one PEM public key. */
  readonly publicKeys: Option.Option<string>
  readonly algorithms: ReadonlyArray<string>
}

/** Asymmetric JWS algorithms only: `none` and HMAC (which a public key could be abused for) never verify. */
export const ServiceJwtAlgorithms = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519"
] as const

export class AppConfig extends Context.Tag("app/AppConfig")<AppConfig, AppConfigShape>() {}

const trimSlash = (url: string) => url.replace(/\/+$/, "")

const absoluteUrl = (name: string, config: Config.Config<string>) =>
  config.pipe(
    Config.map(trimSlash),
    Config.validate({
      message: `${name} must be an absolute http(s) URL`,
      validation: (value) => /^https?:\/\/[^/]/.test(value)
    })
  )

const url = (name: string, fallback: string) =>
  absoluteUrl(name, Config.string(name).pipe(Config.withDefault(fallback)))

export const read: Effect.Effect<AppConfigShape, ConfigError.ConfigError> = Effect.gen(function*() {
  const port = yield* Config.port("PORT").pipe(Config.withDefault(8787))
  const host = yield* Config.string("HOST").pipe(Config.withDefault("127.0.0.1"))
  const deployment = yield* Config.literal("public", "enclave")("DEPLOYMENT").pipe(Config.withDefault("public"))
  const urlHost = host.includes(":") ? `[${host}]` : host
  const publicBaseUrl = yield* url("PUBLIC_BASE_URL", `http://${urlHost}:${port}`)
  const serviceJwt: ServiceJwtConfig = {
    issuer: yield* Config.option(Config.string("SERVICE_JWT_ISSUER")),
    audience: yield* Config.string("SERVICE_JWT_AUDIENCE").pipe(Config.withDefault(publicBaseUrl)),
    jwksUrl: yield* Config.option(absoluteUrl("SERVICE_JWT_JWKS_URL", Config.string("SERVICE_JWT_JWKS_URL"))),
    publicKeys: yield* Config.option(Config.string("SERVICE_JWT_PUBLIC_KEYS")),
    algorithms: yield* Config.string("SERVICE_JWT_ALGORITHMS").pipe(
      Config.withDefault("RS256,PS256,ES256,EdDSA"),
      Config.map((list) => list.split(",").map((name) => name.trim()).filter((name) => name !== "")),
      Config.validate({
        message: `SERVICE_JWT_ALGORITHMS must list only ${ServiceJwtAlgorithms.join(", ")}`,
        validation: (names) =>
          names.length > 0 && names.every((name) => (ServiceJwtAlgorithms as ReadonlyArray<string>).includes(name))
      })
    )
  }
  const database: DatabaseConfig = {
    url: yield* Config.option(
      Config.redacted("DATABASE_URL").pipe(Config.validate({
        message: "DATABASE_URL must be a postgres:// or postgresql:// URL",
        validation: (value) => /^postgres(ql)?:\/\/./.test(Redacted.value(value))
      }))
    ),
    poolSize: yield* Config.integer("DATABASE_POOL_SIZE").pipe(
      Config.withDefault(10),
      Config.validate({
        message: "DATABASE_POOL_SIZE must be between 1 and 100",
        validation: (n) => n >= 1 && n <= 100
      })
    ),
    statementTimeoutMillis: yield* Config.integer("DATABASE_STATEMENT_TIMEOUT_MS").pipe(
      Config.withDefault(10_000),
      Config.validate({ message: "DATABASE_STATEMENT_TIMEOUT_MS must be >= 100", validation: (n) => n >= 100 })
    ),
    connectTimeoutMillis: yield* Config.integer("DATABASE_CONNECT_TIMEOUT_MS").pipe(
      Config.withDefault(5_000),
      Config.validate({ message: "DATABASE_CONNECT_TIMEOUT_MS must be >= 100", validation: (n) => n >= 100 })
    ),
    ssl: yield* Config.option(Config.literal("disable", "require", "verify-full")("DATABASE_SSL")),
    sslCaFile: yield* Config.option(Config.string("DATABASE_SSL_CA_FILE"))
  }
  return {
    port,
    host,
    deployment,
    publicBaseUrl,
    authUrl: yield* url("AUTH_URL", publicBaseUrl),
    dataDir: yield* Config.string("DATA_DIR").pipe(Config.withDefault("./.data")),
    database,
    redisUrl: yield* Config.option(
      Config.redacted("REDIS_URL").pipe(Config.validate({
        message: "REDIS_URL must be a redis:// or rediss:// URL",
        validation: (value) => /^rediss?:\/\/./.test(Redacted.value(value))
      }))
    ),
    ecfrBaseUrl: yield* url("ECFR_BASE_URL", "https://www.ecfr.gov"),
    cslBulkUrl: yield* url(
      "CSL_BULK_URL",
      "https://data.trade.gov/downloadable_consolidated_screening_list/v1/consolidated.json"
    ),
    cslFile: yield* Config.option(Config.string("CSL_FILE")),
    federalRegisterBaseUrl: yield* url("FEDERAL_REGISTER_BASE_URL", "https://www.federalregister.gov"),
    secEdgarBaseUrl: yield* url("SEC_EDGAR_BASE_URL", "https://efts.sec.gov"),
    govinfoBaseUrl: yield* url("GOVINFO_BASE_URL", "https://api.govinfo.gov"),
    regulationsBaseUrl: yield* url("REGULATIONS_BASE_URL", "https://api.regulations.gov"),
    dojBaseUrl: yield* url("DOJ_BASE_URL", "https://www.justice.gov"),
    secEdgarUserAgent: yield* Config.option(
      Config.string("SEC_EDGAR_USER_AGENT").pipe(
        Config.map((value) => value.trim()),
        Config.validate({
          message:
            "SEC_EDGAR_USER_AGENT must name the operator and a contact e-mail (e.g. \"Acme Corp ops@acme.example\")",
          validation: (value) => /\S+@\S+\.\S+/.test(value) && value.length <= 200
        })
      )
    ),
    dataGovApiKey: yield* Config.option(Config.redacted("DATA_GOV_API_KEY")),
    skillsSource: yield* Config.string("SKILLS_SOURCE").pipe(
      Config.withDefault("bundled"),
      Config.mapOrFail((value) => {
        const source = parseSkillsSource(value)
        return source === undefined
          ? Either.left(ConfigError.InvalidData(["SKILLS_SOURCE"], "use `bundled` or `github:owner/repo@ref`"))
          : Either.right(source)
      })
    ),
    githubApiBaseUrl: yield* url("GITHUB_API_BASE_URL", "https://api.github.com"),
    githubRawBaseUrl: yield* url("GITHUB_RAW_BASE_URL", "https://raw.githubusercontent.com"),
    skillsGithubToken: yield* Config.option(Config.redacted("SKILLS_GITHUB_TOKEN")),
    logLevel: yield* Config.string("LOG_LEVEL").pipe(Config.withDefault("info")),
    rateLimitPerMinute: yield* Config.integer("RATE_LIMIT_PER_MINUTE").pipe(
      Config.withDefault(120),
      Config.validate({ message: "RATE_LIMIT_PER_MINUTE must be >= 0", validation: (n) => n >= 0 })
    ),
    trustProxy: yield* Config.string("TRUST_PROXY").pipe(
      Config.map((value) => value !== "" && value !== "0" && value.toLowerCase() !== "false"),
      Config.withDefault(false)
    ),
    serviceJwt,
    renderBackendUrl: yield* Config.option(absoluteUrl("RENDER_BACKEND_URL", Config.string("RENDER_BACKEND_URL"))),
    pdfLinkTtlSeconds: yield* Config.integer("PDF_LINK_TTL_SECONDS").pipe(
      Config.withDefault(3600),
      Config.validate({
        message: "PDF_LINK_TTL_SECONDS must be between 1 and 604800 (7 days)",
        validation: (n) => n >= 1 && n <= 604_800
      })
    ),
    pdfStoreMaxBytes: yield* Config.integer("PDF_STORE_MAX_BYTES").pipe(
      Config.withDefault(512 * 1024 * 1024),
      Config.validate({ message: "PDF_STORE_MAX_BYTES must be >= 1048576", validation: (n) => n >= 1024 * 1024 })
    ),
    enterprisePlan: {
      name: yield* Config.string("ENTERPRISE_PLAN_NAME").pipe(Config.withDefault("Enterprise")),
      purchaseUrl: yield* url("ENTERPRISE_PURCHASE_URL", `${publicBaseUrl}/docs`),
      contact: yield* Config.string("ENTERPRISE_CONTACT").pipe(Config.withDefault("sales@example.com"))
    }
  }
})

/** Reads the configuration from the active ConfigProvider (the environment by default). */
export const layer: Layer.Layer<AppConfig, ConfigError.ConfigError> = Layer.effect(AppConfig, read)

/** A configuration for tests: defaults with the given overrides, never reading the environment. */
export const layerWith = (overrides: Partial<AppConfigShape>): Layer.Layer<AppConfig> =>
  Layer.effect(
    AppConfig,
    read.pipe(
      Effect.map((defaults) => ({ ...defaults, ...overrides })),
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map())),
      Effect.orDie
    )
  )
