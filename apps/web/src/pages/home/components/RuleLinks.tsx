import { useQueries } from '@tanstack/react-query';
import { CONTENT_TYPES, RULE_DOCUMENT_TYPES } from '@coalx/shared';
import { contentList } from '@/services/content';
import { pdfDetailsPath } from '@/lib/home';

/**
 * The three rule documents of the home page (spec §2): spot coal trading rules (a), trader management rules (b),
 * deposit rules (c). Each opens the latest published document's PDF in a new tab (pdfDetails).
 */
export default function RuleLinks() {
  const lists = useQueries({
    queries: RULE_DOCUMENT_TYPES.map((type) => ({
      queryKey: ['content', 'list', type, 1],
      queryFn: () => contentList({ type, pageNo: 1, pageSize: 10 }),
      staleTime: 60_000,
    })),
  });
  return (
    <section className="coalx-home-block coalx-rules" aria-label="规则文件">
      <header className="coalx-home-block-head">
        <h3 className="coalx-home-block-title">交易规则</h3>
      </header>
      <ul className="coalx-rule-list">
        {RULE_DOCUMENT_TYPES.map((type, i) => {
          const latest = lists[i]?.data?.records.find((r) => r.enclosure) ?? null;
          const label = CONTENT_TYPES[type];
          return (
            <li key={type}>
              {latest?.enclosure ? (
                <a href={pdfDetailsPath(latest.enclosure, latest.title)} target="_blank" rel="noopener" className="coalx-rule-link" data-testid={`rule-${type}`} title={latest.title}>
                  <span className="coalx-rule-icon" aria-hidden="true">PDF</span>
                  <span className="coalx-rule-name">{label}</span>
                  <span className="coalx-rule-go">›</span>
                </a>
              ) : (
                <span className="coalx-rule-link disabled" title={lists[i]?.isLoading ? '加载中' : '暂未发布'}>
                  <span className="coalx-rule-icon" aria-hidden="true">PDF</span>
                  <span className="coalx-rule-name">{label}</span>
                  <span className="coalx-rule-go">{lists[i]?.isLoading ? '…' : '暂未发布'}</span>
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
