import { exportJWK, generateKeyPair, SignJWT } from "jose"
import { compare } from "./lib/load.ts"
import { startService } from "./lib/processes.ts"

const issuer = "https://issuer.bench.example"
const audience = "urn:svc:bench"

/**
 * What authentication costs on the request path. The enclave deployment verifies a service JWT
 * (RS256, `jose`) on every guarded request before the handler runs; the public deployment serves
 * the same handler to a credential it does not resolve (so the response cache is bypassed in both).
 * A second pair checks that the enclave's access policy costs nothing on an open, cached path.
 */
export const run = async () => {
  const { privateKey, publicKey } = await generateKeyPair("RS256")
  const jwks = { keys: [{ ...await exportJWK(publicKey), kid: "bench", alg: "RS256" }] }
  const now = Math.floor(Date.now() / 1000)
  const token = await new SignJWT({ svc_entitlements: ["mcp", "pdf"] })
    .setProtectedHeader({ alg: "RS256", kid: "bench" })
    .setIssuer(issuer).setAudience(audience).setSubject("bench").setIssuedAt(now).setExpirationTime(now + 3600)
    .sign(privateKey)
  const publicService = await startService({ RATE_LIMIT_PER_MINUTE: "0" })
  const enclave = await startService({
    DEPLOYMENT: "enclave",
    SERVICE_JWT_ISSUER: issuer,
    SERVICE_JWT_AUDIENCE: audience,
    SERVICE_JWT_PUBLIC_KEYS: JSON.stringify(jwks)
  })
  try {
    const path = "/api/regulatory-status"
    const probe = await fetch(`${enclave.url}${path}`, { headers: { authorization: `Bearer ${token}` } })
    if (probe.status !== 200) throw new Error(`the enclave refused the benchmark token: ${probe.status}`)
    const verifiedJwt = await compare(
      { url: `${enclave.url}${path}`, options: { headers: { authorization: `Bearer ${token}` } } },
      { url: `${publicService.url}${path}`, options: { headers: { authorization: "Bearer benchmark" } } }
    )
    const openCachedPath = await compare({ url: `${enclave.url}/` }, { url: `${publicService.url}/` })
    return {
      description: `GET ${path} with a service JWT on the enclave vs the same handler on the public deployment ` +
        "(cache bypassed by a bearer in both); GET / (open, cached) on the enclave vs the public deployment",
      goal: "JWT verification keeps >= 0.5 x the unverified handler throughput; open paths ~1.0 x",
      verifiedJwt,
      openCachedPath
    }
  } finally {
    await enclave.stop()
    await publicService.stop()
  }
}
