/**
 * Whether a client accepts a gzip-encoded body, from its `Accept-Encoding` (q-values honoured; an
 * explicit `gzip;q=0` wins over `*`).
 */
export const acceptsGzip = (header: string | undefined): boolean => {
  if (header === undefined || header === "") return false
  let gzip: number | undefined
  let any: number | undefined
  for (const coding of header.toLowerCase().split(",")) {
    const [name, ...params] = coding.split(";").map((part) => part.trim())
    const weight = params.find((param) => param.startsWith("q="))
    const q = weight === undefined ? 1 : Number(weight.slice(2))
    if (name === "gzip" || name === "x-gzip") gzip = Number.isNaN(q) ? 0 : q
    else if (name === "*") any = Number.isNaN(q) ? 0 : q
  }
  return (gzip ?? any ?? 0) > 0
}
