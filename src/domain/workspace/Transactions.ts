import { Schema } from "effect"
import {
  Country,
  CursorField,
  Day,
  Eccn,
  exact,
  HttpUrl,
  Instant,
  Limit,
  matching,
  numberIn,
  Text,
  upTo
} from "./Fields.ts"

/**
 * Compliance transactions: the dashboard record an agent keeps in sync while it classifies the
 * items, screens the parties and writes the documents of one export (an order, a shipment).
 */

export const EventType = Schema.Literal(
  "classify",
  "jurisdiction",
  "screen",
  "license",
  "export_docs",
  "red_flags",
  "note"
)
export type EventType = typeof EventType.Type

/** The steps a transaction needs complete before it is `complete` (`note` is never required). */
export const requiredSteps: ReadonlyArray<EventType> = [
  "classify",
  "jurisdiction",
  "screen",
  "license",
  "export_docs",
  "red_flags"
]

export const StepStatus = Schema.Literal("complete", "pending", "flagged")
export type StepStatus = typeof StepStatus.Type

export const Link = Schema.Struct({
  url: HttpUrl,
  label: Schema.optionalWith(Text(200), exact)
})

export const TransactionEvent = Schema.Struct({
  type: EventType,
  status: StepStatus,
  summary: Text(2000),
  links: Schema.optionalWith(upTo(Link, 10), exact),
  at: Schema.optionalWith(Instant, exact)
})
export type TransactionEvent = typeof TransactionEvent.Type

export const Party = Schema.Struct({
  name: Text(300),
  role: Schema.optionalWith(
    Schema.Literal("buyer", "consignee", "end_user", "intermediate", "forwarder", "other"),
    exact
  ),
  country: Schema.optionalWith(Country, exact)
})

export const Item = Schema.Struct({
  description: Text(500),
  eccn: Schema.optionalWith(Eccn, exact),
  jurisdiction: Schema.optionalWith(Schema.Literal("EAR", "ITAR"), exact),
  schedule_b: Schema.optionalWith(
    matching(/^\d{4}\.?\d{2}\.?\d{4}$/, "must be a 10-digit Schedule B number"),
    exact
  )
})

export const Money = Schema.Struct({
  amount: numberIn(0, 1e15),
  currency: matching(/^[A-Z]{3}$/, "must be an ISO 4217 code such as USD")
})

export const Reference = Text(128)

/** `sync_compliance_transaction`: fields sent replace the stored ones; events replace the stored event of their type. */
export const TransactionSync = Schema.Struct({
  reference: Reference,
  date: Schema.optionalWith(Day, exact),
  destination: Schema.optionalWith(Country, exact),
  value: Schema.optionalWith(Money, exact),
  parties: Schema.optionalWith(upTo(Party, 50), exact),
  items: Schema.optionalWith(upTo(Item, 200), exact),
  events: Schema.optionalWith(upTo(TransactionEvent, 20), exact)
})
export type TransactionSync = typeof TransactionSync.Type

export const Transaction = Schema.Struct({
  reference: Schema.String,
  date: Day,
  status: StepStatus,
  open_steps: Schema.Array(EventType),
  destination: Schema.optionalWith(Country, exact),
  value: Schema.optionalWith(Money, exact),
  parties: Schema.Array(Party),
  items: Schema.Array(Item),
  events: Schema.Array(TransactionEvent),
  created_at: Instant,
  updated_at: Instant
})
export type Transaction = typeof Transaction.Type

export const TransactionSummary = Schema.Struct({
  reference: Schema.String,
  date: Day,
  status: StepStatus,
  open_steps: Schema.Array(EventType),
  destination: Schema.optionalWith(Country, exact),
  updated_at: Instant
})
export type TransactionSummary = typeof TransactionSummary.Type

export const TransactionListParams = Schema.Struct({
  status: Schema.optionalWith(StepStatus, exact),
  from: Schema.optionalWith(Day, exact),
  to: Schema.optionalWith(Day, exact),
  limit: Schema.optionalWith(Limit(100), exact),
  cursor: Schema.optionalWith(CursorField, exact)
})
export type TransactionListParams = typeof TransactionListParams.Type

export const TransactionPage = Schema.Struct({
  transactions: Schema.Array(TransactionSummary),
  count: Schema.Int,
  next_cursor: Schema.NullOr(Schema.String)
})
export type TransactionPage = typeof TransactionPage.Type

export const TransactionRef = Schema.Struct({ reference: Reference })

/**
 * The derived status: any flagged step → `flagged`; every required step complete → `complete`;
 * else `pending`. `open_steps` lists the required steps not yet complete.
 */
export const deriveStatus = (events: ReadonlyArray<TransactionEvent>) => {
  const byType = new Map(events.map((event) => [event.type, event.status]))
  const open_steps = requiredSteps.filter((step) => byType.get(step) !== "complete")
  const status: StepStatus = events.some((event) => event.status === "flagged")
    ? "flagged"
    : open_steps.length === 0
    ? "complete"
    : "pending"
  return { status, open_steps }
}

/** Events after a sync: a new event replaces the stored event of its type; order follows first appearance. */
export const mergeEvents = (
  stored: ReadonlyArray<TransactionEvent>,
  incoming: ReadonlyArray<TransactionEvent>
): ReadonlyArray<TransactionEvent> => {
  const merged = new Map(stored.map((event) => [event.type, event]))
  for (const event of incoming) merged.set(event.type, event)
  return [...merged.values()]
}
