import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"

interface LockEntry {
  readonly optional?: boolean
  readonly resolved?: string
  readonly os?: ReadonlyArray<string>
  readonly cpu?: ReadonlyArray<string>
  readonly optionalDependencies?: Record<string, string>
}

const lockfiles = ["package-lock.json", "conformance/package-lock.json", "runtimes/deno/package-lock.json"]
const packagesOf = (path: string): Record<string, LockEntry> => JSON.parse(readFileSync(path, "utf8")).packages

/** Package names that only exist for one platform (`@esbuild/darwin-arm64`, `@deno/win32-x64` …). */
const platformSpecific = /(?:^|[-/])(?:darwin|win32|linux|android|freebsd|openbsd|netbsd|openharmony|sunos|aix)(?:-|$)/

// `npm ci` (what CI runs) rejects a lockfile that misses any optional dependency, including other
// platforms' binaries that this workplace's registry does not serve. `npm run lockfile:fix` adds them,
// with the platform the registry declares: an entry without `os`/`cpu` is installed everywhere.
describe.each(lockfiles)("%s", (path) => {
  it("records every optional dependency, so `npm ci` accepts it", () => {
    const packages = packagesOf(path)
    const missing = Object.entries(packages).flatMap(([location, entry]) =>
      Object.keys(entry.optionalDependencies ?? {}).filter((name) =>
        packages[`${location ? `${location}/` : ""}node_modules/${name}`] === undefined &&
        packages[`node_modules/${name}`] === undefined
      )
    )
    expect(missing, "run `npm run lockfile:fix`").toEqual([])
  })

  it("gives every platform-specific package its platform, so other platforms' binaries are not installed", () => {
    const unmarked = Object.entries(packagesOf(path))
      .filter(([location, entry]) =>
        entry.optional === true && platformSpecific.test(location.replace(/^.*node_modules\//, "")) &&
        entry.os === undefined && entry.cpu === undefined
      )
      .map(([location]) => location)
    expect(unmarked, "run `npm run lockfile:fix`").toEqual([])
  })
})
