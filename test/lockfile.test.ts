import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"

// `npm ci` (what CI runs) rejects a lockfile that misses any optional dependency, including other
// platforms' binaries that this workplace's registry does not serve. `npm run lockfile:fix` adds them.
describe("package-lock.json", () => {
  it("records every optional dependency, so `npm ci` accepts it", () => {
    const packages: Record<string, { optionalDependencies?: Record<string, string> }> =
      JSON.parse(readFileSync("package-lock.json", "utf8")).packages
    const missing = Object.entries(packages).flatMap(([location, entry]) =>
      Object.keys(entry.optionalDependencies ?? {}).filter((name) =>
        packages[`${location ? `${location}/` : ""}node_modules/${name}`] === undefined &&
        packages[`node_modules/${name}`] === undefined
      )
    )
    expect(missing, "run `npm run lockfile:fix`").toEqual([])
  })
})
