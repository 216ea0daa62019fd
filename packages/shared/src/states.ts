import { AuctionStates, EnrolmentStates } from './auction/states';
import { ContentStates } from './content/states';
import { ChangeRequestStates, EnterpriseAuditStates, TradingSuspensionStates } from './enterprise/states';
import { DepositInStates, TradeDepositStates, WithdrawalStates } from './funds/states';
import { ListingStates, SubscriptionStates } from './listing/states';
import { UkeyDeviceStates } from './ukey/states';
import { ContractStates, ContractUploadStates } from './contract/states';
import { OrderStates } from './order/states';
import { DriverStates } from './driver/states';
import { DispatchStates, QualityReportStates } from './delivery/states';
import { InvoiceStates } from './invoice/states';
import { StatementStates } from './settlement/states';
import { FreightStatementStates } from './freight/states';
import { CallOffStates, LongTermApplicationStates, LongTermStates } from './longterm/states';

/** Every status of the product, one transition table each (the tables live in `<domain>/states.ts`). */
export const STATE_MACHINES = {
  listing: ListingStates,
  subscription: SubscriptionStates,
  auction: AuctionStates,
  enrolment: EnrolmentStates,
  depositIn: DepositInStates,
  withdrawal: WithdrawalStates,
  tradeDeposit: TradeDepositStates,
  content: ContentStates,
  enterpriseAudit: EnterpriseAuditStates,
  changeRequest: ChangeRequestStates,
  tradingSuspension: TradingSuspensionStates,
  ukeyDevice: UkeyDeviceStates,
  contract: ContractStates,
  contractUpload: ContractUploadStates,
  order: OrderStates,
  driver: DriverStates,
  dispatch: DispatchStates,
  qualityReport: QualityReportStates,
  invoice: InvoiceStates,
  statement: StatementStates,
  freightStatement: FreightStatementStates,
  longTerm: LongTermStates,
  longTermApplication: LongTermApplicationStates,
  callOff: CallOffStates,
} as const;
