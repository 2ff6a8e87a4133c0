// This workplace's npm registry serves only packages installable on this platform, so
// `npm install` cannot record other platforms' optional packages (@deno/darwin-arm64 …) in the
// lockfile, and `npm ci` then rejects the lockfile as out of sync. This records each missing
// optional dependency as an optional entry WITH the platform fields the registry declares for it
// (`os`, `cpu`, `libc`): without them `npm ci` cannot tell that a package does not fit and
// installs every platform's binaries (521 MB of Deno alone).
import { execFileSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"

const path = "package-lock.json"
const lock = JSON.parse(readFileSync(path, "utf8"))
const packages = lock.packages

/** The platform fields of a published version, as the registry states them. */
const platformOf = (name, version) => {
  const json = execFileSync("npm", ["view", `${name}@${version}`, "os", "cpu", "libc", "--json"], { encoding: "utf8" })
  const fields = json.trim() === "" ? {} : JSON.parse(json)
  return Object.fromEntries(
    ["os", "cpu", "libc"].filter((key) => fields[key] !== undefined).map((key) => [
      key,
      [fields[key]].flat()
    ])
  )
}

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

let described = 0
for (const [location, entry] of Object.entries(packages)) {
  // a stub: recorded by this script (no tarball), not yet carrying the platform it is for
  if (!entry.optional || entry.resolved !== undefined || entry.os !== undefined || entry.cpu !== undefined) continue
  const name = location.replace(/^.*node_modules\//, "")
  const platform = platformOf(name, entry.version)
  if (Object.keys(platform).length === 0) continue
  packages[location] = { ...entry, ...platform }
  described++
}

lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b)))
)
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`lockfile: recorded ${added} optional packages for other platforms, ${described} with their platform`)
