import { formatFen } from '@coalx/shared';
import type { CSSProperties } from 'react';

/** Integer fen → '¥1,234.56' (spec §5: thousands separators, 2 decimals); '-' when there is no amount. */
export function yuan(fen: number | bigint | string | null | undefined): string {
  const text = formatFen(fen);
  if (text === '-') return text;
  return text.startsWith('-') ? `-¥${text.slice(1)}` : `¥${text}`;
}

/** An amount in a table or a card: tabular digits so the columns line up. */
export default function Money({ fen, strong, style }: { fen: number | bigint | string | null | undefined; strong?: boolean; style?: CSSProperties }) {
  return (
    <span className="coalx-money" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', fontWeight: strong ? 600 : undefined, ...style }}>
      {yuan(fen)}
    </span>
  );
}
