import { Tooltip } from 'antd';
import type { CSSProperties } from 'react';
import { ELLIPSIS, ellipsis } from '@coalx/shared';

export interface EllipsisTextProps {
  text: string | null | undefined;
  /** Characters kept (spec §5: 14 names, 40 announcement titles, 16 otherwise). */
  max?: number;
  className?: string;
  style?: CSSProperties;
}

/** A text cut at `max` characters; when cut, the full text shows on hover (tooltip and title). */
export default function EllipsisText({ text, max = ELLIPSIS.default, className, style }: EllipsisTextProps) {
  const full = text ?? '';
  const shown = ellipsis(full, max);
  if (shown === full) {
    return (
      <span className={className} style={style}>
        {full}
      </span>
    );
  }
  return (
    <Tooltip title={full}>
      <span className={className} style={style} title={full} data-full-text={full}>
        {shown}
      </span>
    </Tooltip>
  );
}
