import { Schema } from "effect"
import * as Examples from "./examples/Service.ts"

export const ServiceName = "Export Compliance Data Service"
export const ServiceVersion = "2.3.0"

export const SupportedPartNumber = Schema.Literal(121, 732, 734, 738, 740, 742, 744, 746, 748, 762, 772, 774)
export type SupportedPartNumber = typeof SupportedPartNumber.Type

export const CfrTitleNumber = Schema.Literal(15, 22)
export type CfrTitleNumber = typeof CfrTitleNumber.Type

export interface SupportedPartInfo {
  readonly part: SupportedPartNumber
  readonly title: CfrTitleNumber
  readonly label: string
}

export const supportedParts: ReadonlyArray<SupportedPartInfo> = [
  { part: 121, title: 22, label: "US Munitions List (USML)" },
  { part: 732, title: 15, label: "Steps for Using the EAR" },
  { part: 734, title: 15, label: "Scope of the Export Administration Regulations" },
  { part: 738, title: 15, label: "Commerce Country Chart" },
  { part: 740, title: 15, label: "License Exceptions" },
  { part: 742, title: 15, label: "Control Policy: CCL Based Controls" },
  { part: 744, title: 15, label: "End-Use Controls (Entity List, Military End-Use)" },
  { part: 746, title: 15, label: "Embargoes and Other Special Controls" },
  { part: 748, title: 15, label: "Applications (Classification, Advisory, and License) and Documentation" },
  { part: 762, title: 15, label: "Recordkeeping" },
  { part: 772, title: 15, label: "Definitions of Terms" },
  { part: 774, title: 15, label: "Commerce Control List (CCL)" }
]

export const supportedPartNumbers: ReadonlyArray<SupportedPartNumber> = supportedParts.map((p) => p.part)

export const isSupportedPart = (n: number): n is SupportedPartNumber => supportedPartNumbers.includes(n as never)

export const SupportedPart = Schema.Struct({
  part: Schema.Int,
  title: Schema.Int,
  label: Schema.String,
  endpoint: Schema.optional(Schema.String.annotations({ description: "Relative URL of the part structure" })),
  search: Schema.optional(Schema.String.annotations({ description: "Relative URL of the part-scoped search" }))
}).annotations({ identifier: "SupportedPart" })

export const IndexPart = Schema.Struct({
  part: Schema.Int,
  title: Schema.Int,
  label: Schema.String,
  url: Schema.String.annotations({ description: "Absolute URL of the part structure" })
}).annotations({ identifier: "IndexPart" })

/** The groups of the index directory, in the order they are listed. */
export const EndpointGroups = ["ecfr", "radar", "enforcement", "intel", "skills", "mcp", "documents", "spec"] as const
export const EndpointGroup = Schema.Literal(...EndpointGroups)
export type EndpointGroup = typeof EndpointGroup.Type

export const ServiceIndex = Schema.Struct({
  name: Schema.String,
  version: Schema.String,
  runtime: Schema.String,
  docs: Schema.String.annotations({ description: "URL of the interactive API reference" }),
  health: Schema.String,
  endpoints: Schema.Record({ key: EndpointGroup, value: Schema.Array(Schema.String) }).annotations({
    description: "Endpoint directory by group; each entry is `<METHOD> <path> — <description>`"
  }),
  supportedParts: Schema.Array(IndexPart),
  host: Schema.optional(Schema.String),
  auth: Schema.optional(Schema.String)
}).annotations({ identifier: "ServiceIndex", examples: [Examples.serviceIndex] })
export type ServiceIndex = typeof ServiceIndex.Type

export const Health = Schema.Struct({
  status: Schema.Literal("ok", "degraded"),
  service: Schema.String,
  version: Schema.String,
  runtime: Schema.String,
  timestamp: Schema.String.annotations({ format: "date-time" }),
  ecfr: Schema.String.annotations({ description: "`ok`, or `error: <detail>` describing eCFR reachability" }),
  cache: Schema.Struct({
    dataCacheControl: Schema.String,
    cfrEdgeTtlSeconds: Schema.Int,
    skillsEdgeTtlSeconds: Schema.Int,
    screeningEdgeTtlSeconds: Schema.Int,
    dailyRefresh: Schema.String
  })
}).annotations({ identifier: "Health", examples: [Examples.health] })
export type Health = typeof Health.Type

export const ProblemTypeInfo = Schema.Struct({
  type: Schema.String,
  title: Schema.String,
  status: Schema.Int,
  description: Schema.String
}).annotations({ identifier: "ProblemTypeInfo", examples: [Examples.problemType] })
