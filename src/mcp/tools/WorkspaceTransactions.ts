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
  title: "Sync transaction",
  description: "Upsert a transaction by `reference`; sent fields replace stored ones, an event replaces its type's. " +
    "Status: any flagged → flagged; all steps but note complete → complete; else pending.",
  version: "1.0.0",
  enterprise: true,
  annotations: writes("Sync transaction"),
  input: TransactionSync,
  output: json(Transaction),
  run: (input) => inWorkspace((workspace) => Effect.flatMap(Transactions, (store) => store.sync(workspace, input)))
})

export const listComplianceTransactions = Tool.make({
  name: "list_compliance_transactions",
  title: "List transactions",
  description: "Transactions, newest first: `{ transactions, count, next_cursor }` (null: no more).",
  version: "1.0.0",
  enterprise: true,
  annotations: reads("List transactions"),
  input: TransactionListParams,
  output: json(TransactionPage),
  run: (params) => inWorkspace((workspace) => Effect.flatMap(Transactions, (store) => store.list(workspace, params)))
})

export const getComplianceTransaction = Tool.make({
  name: "get_compliance_transaction",
  title: "Get transaction",
  description: "One transaction by reference.",
  version: "1.0.0",
  enterprise: true,
  annotations: reads("Get transaction"),
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
