import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from 'antd';

interface Props {
  children: ReactNode;
  /** Changing it (e.g. the pathname) clears a shown error. */
  resetKey?: string;
}
interface State {
  error: Error | null;
  resetKey?: string;
}

/** Catches a page that failed to load (ChunkLoadError) or to render, and offers a reload. */
export default class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey !== state.resetKey) return { error: null, resetKey: props.resetKey };
    return null;
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const chunk = error.name === 'ChunkLoadError';
    // plain markup: this sits in the entry chunk, antd's Result (with its pictures) does not need to
    return (
      <div className="coalx-error-boundary" role="alert">
        <h3>{chunk ? '页面加载失败' : '页面出错了'}</h3>
        <p>{chunk ? error.message : '页面渲染时发生错误，请刷新后重试'}</p>
        <Button type="primary" onClick={() => window.location.reload()}>
          刷新页面
        </Button>
      </div>
    );
  }
}
