import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either } from "effect"
import * as AppConfig from "../src/services/AppConfig.ts"

const trustProxyOf = (value: string | undefined) => {
  const env: Record<string, string> = value === undefined ? {} : { TRUST_PROXY: value }
  return Effect.runSync(Effect.either(Effect.map(
    AppConfig.read.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))),
    (config) => config.trustProxy
  ))).pipe(Either.mapLeft((error) => AppConfig.describeError(error, env)))
}

describe("TRUST_PROXY", () => {
  it("reads a number of appending proxies, cloudflare, or off; the old boolean values mean one proxy", () => {
    const read = (value: string | undefined) => Either.getOrThrow(trustProxyOf(value))
    expect([undefined, "", "0", "false", "off", "no"].map(read)).toEqual([0, 0, 0, 0, 0, 0])
    expect(["1", "true", "TRUE", "yes", "on", " 1 "].map(read)).toEqual([1, 1, 1, 1, 1, 1])
    expect(read("2")).toBe(2)
    expect(read("16")).toBe(16)
    expect(read("Cloudflare")).toBe("cloudflare")
  })

  it("refuses anything else at start, saying what to set", () => {
    for (const value of ["17", "-1", "1.5", "first", "x-forwarded-for"]) {
      expect(trustProxyOf(value)).toEqual(Either.left([
        `TRUST_PROXY=${JSON.stringify(value)}: must be the number of proxies in front that append to ` +
        "X-Forwarded-For (0 to 16), or cloudflare to read CF-Connecting-IP (unset: 0, the peer address)"
      ]))
    }
  })
})
