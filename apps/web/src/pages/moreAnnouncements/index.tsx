import { useQuery } from '@tanstack/react-query';
import { Breadcrumb, Button, Empty, Input, Pagination, Result, Skeleton } from 'antd';
import { FilePdfOutlined, LeftOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import { CONTENT_TYPES, ELLIPSIS, NEWS_PAGE_SIZE, type ContentType } from '@coalx/shared';
import EllipsisText from '@/components/EllipsisText';
import { errorMessage } from '@/app/request';
import { useContentList } from '@/components/AnnouncementTabs';
import { pdfDetailsPath } from '@/lib/home';
import { contentDetail } from '@/services/content';
import './more-announcements.css';

const TYPES = Object.keys(CONTENT_TYPES) as ContentType[];

function isContentType(value: string | null): value is ContentType {
  return value !== null && (TYPES as string[]).includes(value);
}

/** One announcement: title, times, the server-sanitised body and the PDF attachment (opened in a new tab). */
function AnnouncementDetail({ id, type }: { id: number; type: ContentType }) {
  const detail = useQuery({ queryKey: ['content', 'detail', id], queryFn: () => contentDetail(id) });
  if (detail.isLoading) return <Skeleton active paragraph={{ rows: 10 }} />;
  if (detail.isError || !detail.data) {
    return (
      <Result
        status="404"
        title="公告不存在或已下线"
        subTitle={errorMessage(detail.error, '')}
        extra={
          <Link to={`/moreAnnouncements?type=${type}`}>
            <Button type="primary">返回列表</Button>
          </Link>
        }
      />
    );
  }
  const a = detail.data;
  return (
    <article className="coalx-ann-detail">
      <Link to={`/moreAnnouncements?type=${a.type}`} className="coalx-ann-back">
        <LeftOutlined /> 返回{CONTENT_TYPES[a.type as ContentType] ?? '列表'}
      </Link>
      <h1>{a.title}</h1>
      <div className="coalx-ann-meta">
        <span>类型：{CONTENT_TYPES[a.type as ContentType] ?? a.type}</span>
        <span>生效时间：{a.effectiveTime}</span>
        {a.expirationTime && <span>失效时间：{a.expirationTime}</span>}
      </div>
      {/* The body is HTML sanitised by the server (content/detail); no other HTML is ever rendered. */}
      <div className="coalx-ann-body" data-testid="announcement-body" dangerouslySetInnerHTML={{ __html: a.body }} />
      {a.enclosure && (
        <div className="coalx-ann-attachment">
          <span>附件：</span>
          <a href={pdfDetailsPath(a.enclosure, a.title)} target="_blank" rel="noopener" data-testid="announcement-pdf">
            <FilePdfOutlined /> {a.title}.pdf
          </a>
        </div>
      )}
    </article>
  );
}

/** moreAnnouncements (spec §2): the announcements of each type, 10 per page, and one announcement's detail. */
export default function MoreAnnouncementsPage() {
  const [params, setParams] = useSearchParams();
  const rawType = params.get('type');
  const type: ContentType = isContentType(rawType) ? rawType : '0';
  const pageNo = Math.max(1, Number(params.get('pageNo')) || 1);
  const id = Number(params.get('id')) || null;
  const title = params.get('title') ?? '';
  const list = useContentList(type, pageNo, id === null, title);
  const records = list.data?.records ?? [];

  return (
    <div className="coalx-ann-page">
      <Breadcrumb items={[{ title: <Link to="/index">首页</Link> }, { title: '公告' }, { title: CONTENT_TYPES[type] }]} />
      <div className="coalx-ann-layout">
        <nav className="coalx-ann-nav" aria-label="公告类型">
          {TYPES.map((t) => (
            <Link key={t} to={`/moreAnnouncements?type=${t}`} className={t === type ? 'active' : ''} aria-current={t === type ? 'page' : undefined}>
              {CONTENT_TYPES[t]}
            </Link>
          ))}
        </nav>
        <section className="coalx-ann-main">
          {id !== null ? (
            <AnnouncementDetail id={id} type={type} />
          ) : (
            <>
              <div className="coalx-ann-head">
                <h2 className="coalx-ann-heading">{CONTENT_TYPES[type]}</h2>
                <Input.Search
                  key={`${type}:${title}`}
                  className="coalx-ann-search"
                  defaultValue={title}
                  placeholder="搜索公告标题"
                  aria-label="搜索公告标题"
                  maxLength={40}
                  allowClear
                  enterButton="搜索"
                  onSearch={(value) => setParams(value.trim() ? { type, title: value.trim() } : { type })}
                />
              </div>
              {list.isLoading ? (
                <Skeleton active paragraph={{ rows: 8 }} />
              ) : records.length === 0 ? (
                <Empty description={list.isError ? '公告加载失败' : title ? `没有标题包含「${title}」的公告` : '暂无数据'} />
              ) : (
                <ul className="coalx-ann-list" data-testid="announcement-list">
                  {records.map((r) => (
                    <li key={r.id}>
                      <Link to={`/moreAnnouncements?type=${type}&id=${r.id}`} className="coalx-ann-title">
                        <EllipsisText text={r.title} max={ELLIPSIS.announcementTitle} />
                      </Link>
                      {r.enclosure && (
                        <a href={pdfDetailsPath(r.enclosure, r.title)} target="_blank" rel="noopener" className="coalx-ann-pdf" title="查看 PDF">
                          <FilePdfOutlined /> PDF
                        </a>
                      )}
                      <time>{r.effectiveTime.slice(0, 10)}</time>
                    </li>
                  ))}
                </ul>
              )}
              {(list.data?.total ?? 0) > NEWS_PAGE_SIZE && (
                <Pagination
                  className="coalx-ann-pager"
                  current={pageNo}
                  pageSize={NEWS_PAGE_SIZE}
                  total={list.data!.total}
                  showSizeChanger={false}
                  showTotal={(t) => `共 ${t} 条`}
                  onChange={(n) => setParams({ type, pageNo: String(n), ...(title ? { title } : {}) })}
                />
              )}
            </>
          )}
        </section>
      </div>
    </div>
  );
}
