import { useRef, useState } from 'react';
import { ProForm, ProFormDateTimePicker, ProFormSelect, ProFormText, ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import GuardedModalForm from '@/components/GuardedModalForm';
import { Button, Popconfirm, Space, Tag, message } from 'antd';
import { PlusOutlined, FilePdfOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { CONTENT_TYPES, ELLIPSIS, type ContentType } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import Authorized from '@/components/Authorized';
import EllipsisText from '@/components/EllipsisText';
import ExportExcelButton from '@/components/ExportExcel';
import Upload from '@/components/Upload';
import { pdfDetailsPath } from '@/lib/home';
import { shanghaiIso } from '@/lib/trade-form';
import { contentManageList, publishContent, saveContent, unpublishContent, type ContentManage } from '@/services/content';
import { WS_PAGINATION } from '@/lib/pro-table';
import RichTextEditor from './RichTextEditor';

const STATUS: Record<string, { text: string; color: string }> = {
  draft: { text: '草稿', color: 'default' },
  published: { text: '已发布', color: 'green' },
  unpublished: { text: '已下线', color: 'orange' },
};
const TYPE_ENUM = Object.fromEntries(Object.entries(CONTENT_TYPES).map(([k, v]) => [k, { text: v }]));

interface EditorValues {
  type: ContentType;
  title: string;
  body: string;
  enclosure?: string | null;
  effectiveTime: string;
  expirationTime?: string | null;
}

/** Whether a published announcement is visible now (between its effective and expiration times). */
function visibility(r: ContentManage): string | null {
  if (r.status !== 'published') return null;
  const now = dayjs();
  if (dayjs(r.effectiveTime).isAfter(now)) return '未生效';
  if (r.expirationTime && !dayjs(r.expirationTime).isAfter(now)) return '已过期';
  return null;
}

/** Announcements (公告) by type: edit in a modal with a rich-text body and a public PDF attachment; publish / unpublish. */
export default function AnnouncementManage() {
  const action = useRef<ActionType>(null);
  const last = useRef<{ type?: ContentType }>({});
  const [editing, setEditing] = useState<ContentManage | 'new' | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const toggle = async (r: ContentManage, publish: boolean) => {
    setBusy(r.id);
    try {
      await (publish ? publishContent(r.id) : unpublishContent(r.id));
      message.success(publish ? '已发布' : '已下线');
      action.current?.reload();
    } catch (error) {
      message.error(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  const columns: ProColumns<ContentManage>[] = [
    { title: '类型', dataIndex: 'type', valueType: 'select', valueEnum: TYPE_ENUM, width: 140 },
    { title: '标题', dataIndex: 'title', search: false, width: 380, ellipsis: true, render: (_, r) => <EllipsisText text={r.title} max={ELLIPSIS.announcementTitle} /> },
    {
      title: '状态',
      dataIndex: 'status',
      search: false,
      width: 130,
      render: (_, r) => (
        <Space size={4}>
          <Tag color={STATUS[r.status]?.color}>{STATUS[r.status]?.text ?? r.status}</Tag>
          {visibility(r) && <Tag>{visibility(r)}</Tag>}
        </Space>
      ),
    },
    { title: '生效时间', dataIndex: 'effectiveTime', search: false, width: 170 },
    { title: '失效时间', dataIndex: 'expirationTime', search: false, width: 170, render: (_, r) => r.expirationTime ?? '长期有效' },
    {
      title: '附件',
      dataIndex: 'enclosure',
      search: false,
      width: 90,
      render: (_, r) =>
        r.enclosure ? (
          <a href={pdfDetailsPath(r.enclosure, r.title)} target="_blank" rel="noopener">
            <FilePdfOutlined /> PDF
          </a>
        ) : (
          '-'
        ),
    },
    { title: '发布时间', dataIndex: 'publishedAt', search: false, width: 170, render: (_, r) => r.publishedAt ?? '-' },
    {
      title: '操作',
      valueType: 'option',
      width: 150,
      fixed: 'right',
      render: (_, r) => (
        <Authorized action="edit">
          <Space size={0}>
            <Button type="link" size="small" onClick={() => setEditing(r)}>
              编辑
            </Button>
            {r.status === 'published' ? (
              <Popconfirm title="下线后访客将看不到这条公告" okText="下线" cancelText="取消" onConfirm={() => toggle(r, false)}>
                <Button type="link" size="small" danger loading={busy === r.id}>
                  下线
                </Button>
              </Popconfirm>
            ) : (
              <Button type="link" size="small" loading={busy === r.id} onClick={() => toggle(r, true)}>
                发布
              </Button>
            )}
          </Space>
        </Authorized>
      ),
    },
  ];

  const initial: Partial<EditorValues> =
    editing && editing !== 'new'
      ? { type: editing.type, title: editing.title, body: editing.body, enclosure: editing.enclosure, effectiveTime: editing.effectiveTime, expirationTime: editing.expirationTime }
      : { type: last.current.type ?? '0', body: '', enclosure: null, effectiveTime: dayjs().format('YYYY-MM-DD HH:mm:ss'), expirationTime: null };

  return (
    <>
      <ProTable<ContentManage>
        headerTitle="公告管理"
        actionRef={action}
        rowKey="id"
        columns={columns}
        scroll={{ x: 1400 }}
        search={{ labelWidth: 'auto' }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        toolBarRender={() => [
          <ExportExcelButton<ContentManage>
            key="export"
            fileName="公告"
            columns={[
              { title: '类型', value: (r) => CONTENT_TYPES[r.type] ?? r.type },
              { title: '标题', value: (r) => r.title, width: 48 },
              { title: '状态', value: (r) => STATUS[r.status]?.text ?? r.status },
              { title: '生效时间', value: (r) => r.effectiveTime, width: 20 },
              { title: '失效时间', value: (r) => r.expirationTime ?? '长期有效', width: 20 },
              { title: '发布时间', value: (r) => r.publishedAt, width: 20 },
            ]}
            fetchPage={(pageNo, pageSize) => contentManageList({ ...last.current, pageNo, pageSize })}
          />,
          <Authorized action="add" key="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              新建公告
            </Button>
          </Authorized>,
        ]}
        request={async (p) => {
          last.current = { type: (p.type as ContentType) || undefined };
          const page = await contentManageList({ ...last.current, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
          return { data: page.records, total: page.total, success: true };
        }}
      />
      <GuardedModalForm<EditorValues>
        key={editing === 'new' ? 'new' : (editing?.id ?? 'none')}
        title={editing === 'new' ? '新建公告' : '编辑公告'}
        open={editing !== null}
        width={860}
        initialValues={initial}
        modalProps={{ destroyOnHidden: true, onCancel: () => setEditing(null), maskClosable: false }}
        submitter={{ searchConfig: { submitText: '保存', resetText: '取消' } }}
        onFinish={async (v) => {
          try {
            await saveContent({
              id: editing && editing !== 'new' ? editing.id : undefined,
              type: v.type,
              title: v.title,
              body: v.body ?? '',
              enclosure: v.enclosure || null,
              effectiveTime: shanghaiIso(dayjs(v.effectiveTime).format('YYYY-MM-DD HH:mm:ss')),
              expirationTime: v.expirationTime ? shanghaiIso(dayjs(v.expirationTime).format('YYYY-MM-DD HH:mm:ss')) : null,
            });
            message.success('已保存（发布后访客可见）');
            setEditing(null);
            action.current?.reload();
            return true;
          } catch (error) {
            message.error(errorMessage(error));
            return false;
          }
        }}
      >
        <ProForm.Group>
          <ProFormSelect name="type" label="类型" width="sm" valueEnum={TYPE_ENUM} rules={[{ required: true, message: '请选择公告类型' }]} />
          <ProFormText name="title" label="标题" width="xl" fieldProps={{ maxLength: 100, showCount: true }} rules={[{ required: true, whitespace: true, message: '请输入标题' }]} />
        </ProForm.Group>
        <ProForm.Group>
          <ProFormDateTimePicker name="effectiveTime" label="生效时间" width="md" rules={[{ required: true, message: '请选择生效时间' }]} />
          <ProFormDateTimePicker
            name="expirationTime"
            label="失效时间"
            width="md"
            tooltip="不填为长期有效；超出生效、失效时间的公告不对外显示"
            dependencies={['effectiveTime']}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_, value) =>
                  !value || dayjs(value).isAfter(dayjs(getFieldValue('effectiveTime'))) ? Promise.resolve() : Promise.reject(new Error('失效时间须晚于生效时间')),
              }),
            ]}
          />
        </ProForm.Group>
        <ProForm.Item name="body" label="正文">
          <RichTextEditor />
        </ProForm.Item>
        <ProForm.Item name="enclosure" label="PDF 附件" tooltip="公开文件，访客可在 pdfDetails 中查看">
          <Upload accept=".pdf" visibility="public" listType="text">
            <Button icon={<FilePdfOutlined />}>上传 PDF</Button>
          </Upload>
        </ProForm.Item>
      </GuardedModalForm>
    </>
  );
}
