import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Option, Redacted } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { parse } from "yaml"
import * as AppConfig from "../src/services/AppConfig.ts"
import { repoRoot } from "./support/CliEnv.ts"

interface Service {
  readonly image?: string
  readonly build?: string
  readonly environment?: Record<string, string>
  readonly volumes?: ReadonlyArray<string>
  readonly ports?: ReadonlyArray<string>
  readonly command?: ReadonlyArray<string>
  readonly configs?: ReadonlyArray<{ readonly source: string; readonly target: string }>
  readonly healthcheck?: { readonly test: ReadonlyArray<string> }
  readonly depends_on?: Record<string, { readonly condition: string }>
}

const compose = parse(readFileSync(join(repoRoot, "compose.yaml"), "utf8"), { merge: true }) as {
  readonly services: Record<string, Service>
  readonly configs: Record<string, { readonly content: string }>
  readonly volumes: Record<string, unknown>
}

/** What the service would read from a container's environment (plus the image's own ENV). */
const configOf = (environment: Record<string, string>) =>
  Effect.runSync(Effect.either(AppConfig.read.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(
    new Map(Object.entries({ HOST: "0.0.0.0", PORT: "8787", DATA_DIR: "/data", ...environment }))
  )))))

// No Docker engine on the development machines: the file is checked for what the service needs,
// and every instance's environment goes through the service's own start-up validation.
describe("compose.yaml (two instances, PostgreSQL, Redis, a load balancer)", () => {
  const instances = ["ecds-a", "ecds-b"].map((name) => compose.services[name]!)

  it("runs two instances of the service on one database and one Redis, each with its own data volume", () => {
    for (const instance of instances) {
      expect(instance.build).toBe(".")
      const config = configOf(instance.environment!)
      expect(Either.isRight(config), JSON.stringify(config)).toBe(true)
      const read = Either.getOrThrow(config)
      expect(Redacted.value(Option.getOrThrow(read.database.url))).toMatch(/@postgres:5432\//)
      expect(Redacted.value(Option.getOrThrow(read.redisUrl))).toBe("redis://redis:6379")
      expect(read.trustProxy).toBe(1)
      expect(instance.depends_on).toEqual({
        postgres: { condition: "service_healthy" },
        redis: { condition: "service_healthy" }
      })
    }
    expect(instances[0]!.environment).toEqual(instances[1]!.environment)
    const volumes = instances.map((instance) => instance.volumes![0]!)
    expect(new Set(volumes).size).toBe(2)
    for (const volume of volumes) expect(volume).toMatch(/:\/data$/)
  })

  it("gives PostgreSQL the credentials the instances use, and health checks to wait on", () => {
    const postgres = compose.services.postgres!
    const url = new URL(instances[0]!.environment!.DATABASE_URL!)
    expect(postgres.environment).toMatchObject({
      POSTGRES_USER: url.username,
      POSTGRES_PASSWORD: url.password,
      POSTGRES_DB: url.pathname.slice(1)
    })
    expect(postgres.healthcheck!.test).toContain("pg_isready")
    expect(compose.services.redis!.healthcheck!.test).toContain("ping")
  })

  it("balances the published port over both instances at the address PUBLIC_BASE_URL names", () => {
    const balancer = compose.services["load-balancer"]!
    expect(balancer.configs).toEqual([{ source: "caddyfile", target: "/etc/caddy/Caddyfile" }])
    const caddyfile = compose.configs.caddyfile!.content
    expect(caddyfile).toMatch(/^:8787 \{\n\s+reverse_proxy ecds-a:8787 ecds-b:8787 \{/)
    // one proxy in front (TRUST_PROXY=1); a client's own CF-Connecting-IP never reaches an instance either
    expect(caddyfile).toContain("header_up -CF-Connecting-IP")
    // a restarting instance is taken out (active health check) and a refused connection retried elsewhere
    expect(caddyfile).toMatch(/\n\s+health_uri \/health\n/)
    expect(caddyfile).toMatch(/\n\s+lb_try_duration \d+s\n/)
    const published = balancer.ports![0]!.split(":")[0]
    expect(new URL(instances[0]!.environment!.PUBLIC_BASE_URL!).port).toBe(published)
  })
})
