// @messaging-contract/conformance: checks a live implementation of the messaging service against
// the contract, for a service team's CI. The package's face: what it exports, from the layers below.
export type { CheckResult, Profile, RecordedAnswer, RecordedExchange } from './ground/model.ts';
export type { SuiteReport as ConformanceReport } from './ground/model.ts';
export type { CallbackOptions } from './suite/context.ts';
export { conformanceStages, OptionError, runConformance, type ConformanceOptions } from './suite/suite.ts';
export { UnreachableError } from './suite/run-checks.ts';
export { json as formatJson, junit as formatJUnit, summary as formatSummary } from './report.ts';
export { trafficSummary as formatTrafficSummary } from './report.ts';
export { loadVars, VarsError, type Vars } from './suite/vars.ts';
export { checkWebhookReceiver, type WebhookOptions } from './stages/webhook.ts';
export { judgeTraffic } from './traffic/run.ts';
export { startProxy, type ProxyOptions, type RunningProxy } from './traffic/proxy.ts';
export type { Judged, TrafficJudgement, TrafficOptions, TrafficReport } from './traffic/judge.ts';
