import { Effect } from "effect"
import {
  Transaction,
  TransactionListParams,
  TransactionPage,
  TransactionRef,
  TransactionSync
} from "../../domain/workspace/Transactions.ts"
import { Transactions } from "../../services/workspace/Transactions.ts"
import * as Tool from "../Tool.ts"
import { inWorkspace, json, reads, writes } from "./WorkspaceTool.ts"

/** Enterprise, MCP only: the compliance dashboard of the caller's workspace. */
export const syncComplianceTransaction = Tool.make({
  name: "sync_compliance_transaction",
  title: "Sync a compliance transaction",
  description: "Create or update a transaction of your workspace by `reference`. Sent fields replace stored ones; " +
    "each event replaces the stored event of its type. Status is derived: any flagged → flagged; classify, " +
    "jurisdiction, screen, license, export_docs and red_flags complete → complete; else pending.",
  version: "1.0.0",
  enterprise: true,
  annotations: writes("Sync a compliance transaction"),
  input: TransactionSync,
  output: json(Transaction),
  run: (input) => inWorkspace((workspace) => Effect.flatMap(Transactions, (store) => store.sync(workspace, input)))
})

export const listComplianceTransactions = Tool.make({
  name: "list_compliance_transactions",
  title: "List compliance transactions",
  description: "Your workspace's transactions, newest date first: `{ transactions, count, next_cursor }`. " +
    "Filter by status and date range (from/to, inclusive); pass next_cursor back verbatim (null: no more).",
  version: "1.0.0",
  enterprise: true,
  annotations: reads("List compliance transactions"),
  input: TransactionListParams,
  output: json(TransactionPage),
  run: (params) => inWorkspace((workspace) => Effect.flatMap(Transactions, (store) => store.list(workspace, params)))
})

export const getComplianceTransaction = Tool.make({
  name: "get_compliance_transaction",
  title: "Get a compliance transaction",
  description: "One transaction of your workspace by reference, with parties, items and events.",
  version: "1.0.0",
  enterprise: true,
  annotations: reads("Get a compliance transaction"),
  input: TransactionRef,
  output: json(Transaction),
  run: ({ reference }) =>
    inWorkspace((workspace) => Effect.flatMap(Transactions, (store) => store.get(workspace, reference)))
})

export const transactionTools = [
  syncComplianceTransaction,
  listComplianceTransactions,
  getComplianceTransaction
] as const
