import { RightOutlined } from '@ant-design/icons';
import type { WorkbenchMoney, WorkbenchTodo } from '@coalx/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Row, Skeleton, Typography } from 'antd';
import { Link } from 'react-router';
import { errorMessage } from '@/app/request';
import { yuan } from '@/components/Money';
import { getWorkbench, WORKBENCH_KEY } from '@/services/workbench';
import './workbench.css';

function TodoCard({ todo }: { todo: WorkbenchTodo }) {
  const body = (
    <Card className={`coalx-todo-card${todo.count > 0 ? ' coalx-todo-card-active' : ''}`} hoverable={!!todo.path} data-testid={`todo-${todo.key}`}>
      <div className="coalx-todo-title">
        {todo.title}
        {todo.path ? <RightOutlined className="coalx-todo-arrow" /> : null}
      </div>
      <div className="coalx-todo-count">
        <span data-testid="todo-count">{todo.count}</span>
        <span className="coalx-todo-unit">项</span>
      </div>
      <Typography.Text type="secondary" className="coalx-todo-hint">
        {todo.hint}
      </Typography.Text>
    </Card>
  );
  return todo.path ? <Link to={todo.path}>{body}</Link> : body;
}

function MoneyCard({ money }: { money: WorkbenchMoney }) {
  const body = (
    <Card className="coalx-todo-card" hoverable={!!money.path} data-testid={`money-${money.key}`}>
      <div className="coalx-todo-title">
        {money.title}
        {money.path ? <RightOutlined className="coalx-todo-arrow" /> : null}
      </div>
      <div className="coalx-todo-count coalx-todo-money">{yuan(money.amount)}</div>
    </Card>
  );
  return money.path ? <Link to={money.path}>{body}</Link> : body;
}

/** 工作台首页 (workspace /workbench): what waits for this role, with counts and links; the workspace opens here. */
export default function WorkbenchPage() {
  // counts change as others act: read them afresh whenever the page is shown
  const workbench = useQuery({ queryKey: WORKBENCH_KEY, queryFn: getWorkbench, staleTime: 0, refetchOnMount: 'always' });
  const data = workbench.data;
  const waiting = data?.todos.reduce((sum, t) => sum + t.count, 0) ?? 0;

  return (
    <div className="coalx-workbench">
      <div className="coalx-workbench-head">
        <Typography.Title level={4} style={{ margin: 0 }}>
          待办事项
        </Typography.Title>
        {data ? (
          <Typography.Text type="secondary" data-testid="workbench-summary">
            {data.heading} · {waiting > 0 ? `共 ${waiting} 项待处理` : '暂无待办，一切就绪'}
          </Typography.Text>
        ) : null}
      </div>
      {workbench.isError ? <Alert type="error" showIcon message={errorMessage(workbench.error, '待办加载失败，请稍后重试')} /> : null}
      {workbench.isLoading ? <Skeleton active paragraph={{ rows: 4 }} /> : null}
      {data ? (
        <>
          <Row gutter={[16, 16]}>
            {data.todos.map((todo) => (
              <Col key={todo.key} xs={24} md={12} xl={8}>
                <TodoCard todo={todo} />
              </Col>
            ))}
          </Row>
          {data.money.length > 0 ? (
            <>
              <Typography.Title level={5} className="coalx-workbench-section">
                资金
              </Typography.Title>
              <Row gutter={[16, 16]}>
                {data.money.map((money) => (
                  <Col key={money.key} xs={24} md={12} xl={8}>
                    <MoneyCard money={money} />
                  </Col>
                ))}
              </Row>
            </>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
