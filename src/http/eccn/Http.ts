import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { type EccnAnswer, parseEccnQuery } from "../../domain/Eccn.ts"
import { renderEccnText } from "../../domain/EccnText.ts"
import { CclIndex } from "../../services/CclIndex.ts"
import { Api } from "../Api.ts"

type Format = "text" | "json"

const qualityOf = (accept: string, type: string): number => {
  let best = -1
  for (const part of accept.split(",")) {
    const [media, ...params] = part.trim().toLowerCase().split(";")
    if (media !== type && media !== "*/*" && media !== `${type.split("/")[0]}/*`) continue
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find((v) => v !== undefined)
    const exact = media === type ? 0.0001 : 0
    best = Math.max(best, (q === undefined ? 1 : Number(q)) + exact)
  }
  return best
}

/** `?format=` wins; otherwise JSON only when the client prefers application/json to text/plain. */
export const negotiate = (format: Format | undefined, accept: string | undefined): Format => {
  if (format !== undefined) return format
  if (accept === undefined || accept.trim() === "") return "text"
  return qualityOf(accept, "application/json") > qualityOf(accept, "text/plain") ? "json" : "text"
}

/** Like the eCFR endpoints: the issue the text comes from, and whether a stored copy answers. */
const sourceHeaders = (answer: EccnAnswer): Record<string, string> => {
  if (answer.kind !== "entry") return { vary: "Accept" }
  const { fetchedAt, issueDate, stale } = answer.source
  return {
    vary: "Accept",
    "x-ecfr-issue-date": issueDate,
    ...(stale ? { "x-data-stale": `true; fetched-at=${fetchedAt}; issue-date=${issueDate}` } : {})
  }
}

const respond = (answer: EccnAnswer, format: Format) =>
  format === "json"
    ? HttpServerResponse.unsafeJson(answer, { headers: sourceHeaders(answer) })
    : HttpServerResponse.text(renderEccnText(answer), {
      contentType: "text/plain; charset=utf-8",
      headers: sourceHeaders(answer)
    })

export const EccnHttpLive = HttpApiBuilder.group(Api, "eccn", (handlers) =>
  Effect.gen(function*() {
    const ccl = yield* CclIndex
    return handlers.handle("eccn", ({ path, urlParams }) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        // The path schema admits only well-formed ECCNs, so the query always parses.
        const answer = yield* ccl.lookup(parseEccnQuery(path.eccn)!)
        return respond(answer, negotiate(urlParams.format, request.headers["accept"]))
      }))
  }))
