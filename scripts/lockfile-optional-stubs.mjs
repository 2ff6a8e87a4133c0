// This workplace's npm registry serves only packages installable on this platform, so
// `npm install` cannot record other platforms' optional packages (@deno/darwin-arm64 …) in the
// lockfile, and `npm ci` then rejects the lockfile as out of sync. This records each missing
// optional dependency as an optional entry; npm skips (or tolerates failing) optional packages
// that do not fit the platform, so installs stay reproducible here and elsewhere.
import { readFileSync, writeFileSync } from "node:fs"

const path = "package-lock.json"
const lock = JSON.parse(readFileSync(path, "utf8"))
const packages = lock.packages
let added = 0
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ""}node_modules/${name}`
    if (packages[nested] || packages[`node_modules/${name}`]) continue
    packages[`node_modules/${name}`] = {
      version: String(range).replace(/^[\^~=]/, ""),
      ...(entry.dev ? { dev: true } : {}),
      optional: true
    }
    added++
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b)))
)
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`lockfile: recorded ${added} optional packages for other platforms`)
