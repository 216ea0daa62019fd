import { Tooltip } from 'antd';
import { PLACEHOLDER_GROUPS, type ContractPlaceholderInfo } from '@coalx/shared';

/** The placeholders by group; a click inserts {{name}} where the cursor is in the editor. */
export default function PlaceholderPanel({ placeholders, onInsert }: { placeholders: ContractPlaceholderInfo[]; onInsert: (key: string, block: boolean) => void }) {
  return (
    <div className="coalx-template-placeholders" data-testid="template-placeholders">
      <div className="coalx-template-panel-title">占位符（点击插入）</div>
      {PLACEHOLDER_GROUPS.map((group) => {
        const items = placeholders.filter((p) => p.group === group);
        if (items.length === 0) return null;
        return (
          <div key={group} className="coalx-template-placeholder-group">
            <div className="coalx-template-placeholder-group-title">{group}</div>
            <div className="coalx-template-placeholder-items">
              {items.map((p) => (
                <Tooltip key={p.key} title={p.block ? `${p.label}：展开为多段，请单独成行` : p.label} placement="right">
                  <button type="button" className={p.block ? 'block' : undefined} onClick={() => onInsert(p.key, p.block)}>
                    {p.key}
                  </button>
                </Tooltip>
              ))}
            </div>
          </div>
        );
      })}
    </div>
  );
}
