import { useRef, useState } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import { ProForm, ProFormSelect, ProFormText, ProFormTextArea, ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Form, Popconfirm, Space, Spin, Tag, Tooltip, message } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { ROLES, type RoleCode } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import Authorized from '@/components/Authorized';
import GuardedModalForm from '@/components/GuardedModalForm';
import { WS_PAGINATION, enumOf } from '@/lib/pro-table';
import { addRole, copyRole, deleteRole, editRole, getRoleDetail, getRoleMenuTree, listRoles, type RoleMenuNode, type RoleRecord } from '@/services/rolesAdmin';
import GrantTree, { fullValue, grantsToValue, valueToGrants, type GrantValue } from './components/GrantTree';
import './role.css';

interface EditorValues {
  name: string;
  baseRole: RoleCode;
  description: string;
  grants: GrantValue;
}

const EMPTY_GRANTS: GrantValue = { checked: [], actions: {} };

/** The tree field: follows the chosen base role, and starts a new role with everything the base may hold. */
function GrantsField() {
  const form = Form.useFormInstance<EditorValues>();
  const baseRole = Form.useWatch('baseRole', form);
  const tree = useQuery({ queryKey: ['role-menu-tree', baseRole], queryFn: () => getRoleMenuTree(baseRole!), enabled: Boolean(baseRole), staleTime: Infinity });
  return (
    <ProForm.Item
      name="grants"
      label="菜单与操作权限"
      tooltip="勾选角色可打开的菜单，并为每个菜单勾选允许的操作；可选范围为基础角色的菜单。服务器按此授权拦截请求。"
      rules={[{ validator: (_: unknown, v: GrantValue | undefined) => ((v?.checked.length ?? 0) > 0 ? Promise.resolve() : Promise.reject(new Error('请至少勾选一个菜单'))) }]}
    >
      {tree.isLoading ? (
        <Spin />
      ) : (
        <GrantTreeInput tree={tree.data ?? []} />
      )}
    </ProForm.Item>
  );
}

/** Adapts GrantTree to a form item (value / onChange injected by Form.Item). */
function GrantTreeInput({ tree, value, onChange }: { tree: RoleMenuNode[]; value?: GrantValue; onChange?: (v: GrantValue) => void }) {
  return (
    <div className="grant-tree">
      <GrantTree tree={tree} value={value ?? EMPTY_GRANTS} onChange={(v) => onChange?.(v)} />
    </div>
  );
}

/** 角色管理 (system admin): roles, their menu items and per item the actions, which the server enforces. */
export default function SystemRolePage() {
  const action = useRef<ActionType>(null);
  const [editor, setEditor] = useState<{ open: boolean; role: RoleRecord | null; initial?: EditorValues }>({ open: false, role: null });
  const [copying, setCopying] = useState<RoleRecord | null>(null);
  const [loadingId, setLoadingId] = useState<number | null>(null);
  const [form] = Form.useForm<EditorValues>();

  const openNew = async () => {
    const tree = await getRoleMenuTree('trader');
    setEditor({ open: true, role: null, initial: { name: '', baseRole: 'trader', description: '', grants: fullValue(tree) } });
  };

  const openEdit = async (role: RoleRecord) => {
    setLoadingId(role.id);
    try {
      const [detail, tree] = await Promise.all([getRoleDetail(role.id), getRoleMenuTree(role.baseRole)]);
      setEditor({ open: true, role, initial: { name: detail.name, baseRole: detail.baseRole, description: detail.description, grants: grantsToValue(tree, detail.grants) } });
    } catch (error) {
      message.error(errorMessage(error, '角色详情加载失败'));
    } finally {
      setLoadingId(null);
    }
  };

  const remove = async (role: RoleRecord) => {
    try {
      await deleteRole(role.id);
      message.success(`角色「${role.name}」已删除`);
      action.current?.reload();
    } catch (error) {
      message.error(errorMessage(error, '删除失败'));
    }
  };

  const columns: ProColumns<RoleRecord>[] = [
    { title: '角色名称', dataIndex: 'name', width: 180, ellipsis: true },
    { title: '基础角色', dataIndex: 'baseRole', width: 140, valueType: 'select', valueEnum: enumOf(ROLES) },
    {
      title: '类型',
      dataIndex: 'builtin',
      width: 100,
      search: false,
      render: (_, r) => (r.builtin ? <Tag color="blue">内置</Tag> : <Tag>自定义</Tag>),
    },
    { title: '描述', dataIndex: 'description', search: false, ellipsis: true, render: (_, r) => r.description || '—' },
    { title: '用户数', dataIndex: 'userCount', width: 90, search: false, align: 'right' },
    { title: '更新时间', dataIndex: 'updatedAt', width: 170, search: false },
    {
      title: '操作',
      valueType: 'option',
      width: 170,
      render: (_, r) => (
        <Space size={0}>
          <Authorized action="edit">
            <Button type="link" size="small" loading={loadingId === r.id} onClick={() => void openEdit(r)}>
              编辑
            </Button>
          </Authorized>
          <Authorized action="add">
            <Button type="link" size="small" onClick={() => setCopying(r)}>
              复制
            </Button>
          </Authorized>
          <Authorized action="delete">
            {r.builtin || r.userCount > 0 ? (
              <Tooltip title={r.builtin ? '内置角色不能删除' : '该角色下还有用户，不能删除'}>
                <Button type="link" size="small" disabled>
                  删除
                </Button>
              </Tooltip>
            ) : (
              <Popconfirm title={`确定删除角色「${r.name}」吗？`} okText="删除" cancelText="取消" onConfirm={() => remove(r)}>
                <Button type="link" size="small" danger>
                  删除
                </Button>
              </Popconfirm>
            )}
          </Authorized>
        </Space>
      ),
    },
  ];

  return (
    <>
      <ProTable<RoleRecord>
        headerTitle="角色管理"
        actionRef={action}
        rowKey="id"
        columns={columns}
        search={{ labelWidth: 'auto' }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        toolBarRender={() => [
          <Authorized key="add" action="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => void openNew().catch((e: unknown) => message.error(errorMessage(e, '菜单加载失败')))}>
              新增角色
            </Button>
          </Authorized>,
        ]}
        request={async (p) => {
          const rows = await listRoles();
          const name = typeof p.name === 'string' ? p.name.trim() : '';
          const filtered = rows.filter((r) => (!name || r.name.includes(name)) && (!p.baseRole || r.baseRole === p.baseRole));
          const start = ((p.current ?? 1) - 1) * (p.pageSize ?? 10);
          return { data: filtered.slice(start, start + (p.pageSize ?? 10)), total: filtered.length, success: true };
        }}
      />

      <GuardedModalForm<EditorValues>
        key={editor.role?.id ?? `new-${String(editor.open)}`}
        title={editor.role ? `编辑角色：${editor.role.name}` : '新增角色'}
        open={editor.open}
        onOpenChange={(open) => setEditor((e) => ({ ...e, open }))}
        width={960}
        modalProps={{ destroyOnHidden: true, styles: { body: { maxHeight: '68vh', overflowY: 'auto' } } }}
        initialValues={editor.initial}
        form={form}
        onValuesChange={(changed: Partial<EditorValues>) => {
          // another base role offers another menu: a new role starts again from everything that base may hold
          if (!editor.role && changed.baseRole) {
            void getRoleMenuTree(changed.baseRole).then((tree) => form.setFieldValue('grants', fullValue(tree)));
          }
        }}
        onFinish={async (values) => {
          try {
            const grants = valueToGrants(values.grants ?? EMPTY_GRANTS);
            if (editor.role) {
              await editRole({ id: editor.role.id, name: values.name, description: values.description ?? '', grants });
              message.success(`角色「${values.name}」已保存，用户下次加载菜单时生效`);
            } else {
              await addRole({ name: values.name, baseRole: values.baseRole, description: values.description ?? '', grants });
              message.success(`角色「${values.name}」已创建`);
            }
            action.current?.reload();
            return true;
          } catch (error) {
            message.error(errorMessage(error, '保存失败'));
            return false;
          }
        }}
      >
        <ProForm.Group>
          <ProFormText name="name" label="角色名称" width="md" placeholder="如：现货交易员（无竞价）" rules={[{ required: true, message: '请输入角色名称' }, { max: 20, message: '角色名称不超过 20 个字' }]} />
          <ProFormSelect
            name="baseRole"
            label="基础角色"
            width="sm"
            disabled={Boolean(editor.role)}
            tooltip="角色在业务规则上等同于其基础角色，可授予的菜单不超过基础角色"
            options={Object.entries(ROLES).map(([value, label]) => ({ value, label }))}
            rules={[{ required: true, message: '请选择基础角色' }]}
          />
        </ProForm.Group>
        <ProFormTextArea name="description" label="角色描述" placeholder="这个角色做什么、给谁用" fieldProps={{ rows: 2, maxLength: 200, showCount: true }} />
        <GrantsField />
      </GuardedModalForm>

      <GuardedModalForm<{ name: string }>
        key={copying?.id ?? 'copy'}
        title={copying ? `复制角色：${copying.name}` : '复制角色'}
        open={Boolean(copying)}
        onOpenChange={(open) => !open && setCopying(null)}
        width={480}
        modalProps={{ destroyOnHidden: true }}
        initialValues={{ name: copying ? `${copying.name}（副本）`.slice(0, 20) : '' }}
        onFinish={async (values) => {
          try {
            const role = await copyRole({ id: copying!.id, name: values.name });
            message.success(`已复制为角色「${role.name}」`);
            action.current?.reload();
            return true;
          } catch (error) {
            message.error(errorMessage(error, '复制失败'));
            return false;
          }
        }}
      >
        <ProFormText name="name" label="新角色名称" rules={[{ required: true, message: '请输入角色名称' }, { max: 20, message: '角色名称不超过 20 个字' }]} extra="新角色与原角色有相同的基础角色和菜单权限，可随后编辑" />
      </GuardedModalForm>
    </>
  );
}
