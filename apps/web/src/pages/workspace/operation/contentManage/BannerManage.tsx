import { useRef, useState } from 'react';
import { ProForm, ProFormDigit, ProFormSwitch, ProFormText, ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import GuardedModalForm from '@/components/GuardedModalForm';
import { Button, Popconfirm, Space, Switch, Tag, message } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { errorMessage } from '@/app/request';
import Authorized from '@/components/Authorized';
import ExportExcelButton from '@/components/ExportExcel';
import Upload from '@/components/Upload';
import { bannerManageList, deleteBanner, saveBanner, type BannerManage as Banner, type BannerSave } from '@/services/content';
import { WS_PAGINATION } from '@/lib/pro-table';

/** 轮播图 (operator): picture (public upload), link, order and on/off of the home page's banners. */
export default function BannerManage() {
  const action = useRef<ActionType>(null);
  const [editing, setEditing] = useState<Banner | 'new' | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const save = async (data: BannerSave, done: string) => {
    try {
      await saveBanner(data);
      message.success(done);
      action.current?.reload();
      return true;
    } catch (error) {
      message.error(errorMessage(error));
      return false;
    }
  };
  const fromRow = (r: Banner): BannerSave => ({ id: r.id, title: r.title, imageUrl: r.imageUrl, detailPageUrl: r.detailPageURL, sort: r.sort, enabled: r.enabled });

  const columns: ProColumns<Banner>[] = [
    { title: '排序', dataIndex: 'sort', width: 70, sorter: (a, b) => a.sort - b.sort, defaultSortOrder: 'ascend' },
    { title: '图片', dataIndex: 'listImage', width: 190, render: (_, r) => <img src={r.listImage} alt={r.title} className="coalx-banner-thumb" /> },
    { title: '标题', dataIndex: 'title', ellipsis: true },
    { title: '链接', dataIndex: 'detailPageURL', ellipsis: true, render: (_, r) => r.detailPageURL || <Tag>无链接</Tag> },
    {
      title: '启用',
      dataIndex: 'enabled',
      width: 90,
      render: (_, r) => (
        <Switch
          size="small"
          checked={r.enabled}
          loading={busy === r.id}
          aria-label={`启用 ${r.title}`}
          onChange={async (enabled) => {
            setBusy(r.id);
            await save({ ...fromRow(r), enabled }, enabled ? '已启用' : '已停用');
            setBusy(null);
          }}
        />
      ),
    },
    {
      title: '操作',
      valueType: 'option',
      width: 130,
      render: (_, r) => (
        <Authorized action="edit">
          <Space size={0}>
            <Button type="link" size="small" onClick={() => setEditing(r)}>
              编辑
            </Button>
            <Popconfirm
              title="删除这张轮播图？"
              okText="删除"
              cancelText="取消"
              onConfirm={async () => {
                try {
                  await deleteBanner(r.id);
                  message.success('已删除');
                  action.current?.reload();
                } catch (error) {
                  message.error(errorMessage(error));
                }
              }}
            >
              <Button type="link" size="small" danger>
                删除
              </Button>
            </Popconfirm>
          </Space>
        </Authorized>
      ),
    },
  ];

  return (
    <>
      <ProTable<Banner>
        headerTitle="轮播图（首页每 4 秒轮换，按排序从小到大）"
        actionRef={action}
        rowKey="id"
        columns={columns}
        search={false}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        toolBarRender={() => [
          <ExportExcelButton<Banner>
            key="export"
            fileName="轮播图"
            columns={[
              { title: '排序', value: (r) => r.sort },
              { title: '标题', value: (r) => r.title, width: 30 },
              { title: '链接', value: (r) => r.detailPageURL, width: 40 },
              { title: '启用', value: (r) => (r.enabled ? '是' : '否') },
            ]}
            fetchPage={async () => {
              const all = await bannerManageList();
              return { records: all, total: all.length, current: 1, size: all.length };
            }}
          />,
          <Authorized action="add" key="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              新建轮播图
            </Button>
          </Authorized>,
        ]}
        request={async () => {
          const all = await bannerManageList();
          return { data: [...all].sort((a, b) => a.sort - b.sort), total: all.length, success: true };
        }}
      />
      <GuardedModalForm<BannerSave>
        key={editing === 'new' ? 'new' : (editing?.id ?? 'none')}
        title={editing === 'new' ? '新建轮播图' : '编辑轮播图'}
        open={editing !== null}
        width={640}
        initialValues={editing && editing !== 'new' ? fromRow(editing) : { sort: 0, enabled: true, detailPageUrl: '' }}
        modalProps={{ destroyOnHidden: true, onCancel: () => setEditing(null) }}
        submitter={{ searchConfig: { submitText: '保存', resetText: '取消' } }}
        onFinish={async (v) => {
          const ok = await save({ ...v, id: editing && editing !== 'new' ? editing.id : undefined, detailPageUrl: v.detailPageUrl?.trim() ?? '' }, '已保存');
          if (ok) setEditing(null);
          return ok;
        }}
      >
        <ProFormText name="title" label="标题" fieldProps={{ maxLength: 40, showCount: true }} rules={[{ required: true, whitespace: true, message: '请输入标题' }]} />
        <ProForm.Item name="imageUrl" label="图片" tooltip="建议 1920×300 的 .jpg / .png，公开文件" rules={[{ required: true, message: '请上传图片' }]}>
          <Upload visibility="public" />
        </ProForm.Item>
        <ProFormText
          name="detailPageUrl"
          label="点击跳转链接"
          placeholder="/moreBidding?tradeType=2 或 https://…"
          rules={[{ pattern: /^(\/|https?:\/\/)/, message: '链接须以 / 或 http(s):// 开头' }]}
        />
        <ProFormDigit name="sort" label="排序" min={0} max={999} fieldProps={{ precision: 0 }} width="sm" />
        <ProFormSwitch name="enabled" label="启用" />
      </GuardedModalForm>
    </>
  );
}
