import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { message } from 'antd';
import { Link } from 'react-router';
import { CONTENT_TYPES, ELLIPSIS, NEWS_PAGE_SIZE, type ContentType } from '@coalx/shared';
import EllipsisText from '@/components/EllipsisText';
import { errorMessage } from '@/app/request';
import { contentList, type ContentRecord } from '@/services/content';
import { moreAnnouncementsPath, showViewMore } from '@/lib/home';

const TABS: ContentType[] = ['0', '1'];

/** One announcement list; a failure shows the server's message as an error toast (spec §8). */
export function useContentList(type: ContentType, pageNo = 1, enabled = true, title = '') {
  return useQuery({
    queryKey: ['content', 'list', type, pageNo, title],
    queryFn: async () => {
      try {
        return await contentList({ type, pageNo, pageSize: NEWS_PAGE_SIZE, title });
      } catch (error) {
        void message.error(errorMessage(error, '公告加载失败'));
        throw error;
      }
    },
    enabled,
    staleTime: 60_000,
  });
}

function AnnouncementItem({ item }: { item: ContentRecord }) {
  return (
    <li className="coalx-news-item">
      <Link to={`${moreAnnouncementsPath(item.type)}&id=${item.id}`} className="coalx-news-title">
        <EllipsisText text={item.title} max={ELLIPSIS.announcementTitle} />
      </Link>
      <time className="coalx-news-date">{item.effectiveTime.slice(0, 10)}</time>
    </li>
  );
}

/**
 * The home page's announcement tabs 周报 / 市场观察 (spec §2): 10 per tab, titles cut at 40 characters, and 'view more'
 * when either tab's total exceeds 10. Both lists load at once so switching tabs is instant.
 */
export default function AnnouncementTabs() {
  const [tab, setTab] = useState<ContentType>('0');
  const weekly = useContentList('0');
  const observation = useContentList('1');
  const current = tab === '0' ? weekly : observation;
  const records = current.data?.records ?? [];
  return (
    <section className="coalx-home-block coalx-news" aria-label="公告">
      <header className="coalx-home-block-head">
        <div className="coalx-news-tabs" role="tablist">
          {TABS.map((t) => (
            <button key={t} type="button" role="tab" aria-selected={tab === t} className={`coalx-news-tab ${tab === t ? 'active' : ''}`} onClick={() => setTab(t)}>
              {CONTENT_TYPES[t]}
            </button>
          ))}
        </div>
        {/* spec §2: shown when either tab has more than 10, leading to the tab being looked at */}
        {(showViewMore(weekly.data?.total) || showViewMore(observation.data?.total)) && (
          <Link to={moreAnnouncementsPath(tab)} className="coalx-home-more" data-testid="news-more">
            查看更多 &gt;
          </Link>
        )}
      </header>
      <ul className="coalx-news-list" data-testid="news-list" data-type={tab}>
        {current.isLoading
          ? Array.from({ length: 6 }, (_, i) => <li key={i} className="coalx-news-item skeleton" aria-hidden="true" />)
          : records.map((item) => <AnnouncementItem key={item.id} item={item} />)}
        {!current.isLoading && records.length === 0 && <li className="coalx-news-empty">{current.isError ? '公告加载失败' : '暂无公告'}</li>}
      </ul>
    </section>
  );
}
