import { useCallback, useEffect, useRef, useState } from 'react';
import { BellOutlined } from '@ant-design/icons';
import { Badge, Grid, Popover } from 'antd';
import { useNavigate } from 'react-router';
import type { MessageRecord } from '@coalx/shared';
import { followMessage, useMessageChannel } from '@/hooks/useMessageChannel';
import { MESSAGE_LIST_PATH, unreadSummary } from '@/lib/message';
import BellPanel from './BellPanel';
import { showUrgentNotice } from './urgent-notice';
import './message-bell.css';

/**
 * 消息中心 bell of both layouts' headers (issue 28): the unread count, live from the tab's message socket; a click
 * opens the latest unread messages with 查看, 全部已读 and 查看全部. An urgent message pushed while the tab is open
 * also shows as a browser notice with its 去处理 link.
 */
export default function MessageBell() {
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);
  const [open, setOpen] = useState(false);
  const phone = Grid.useBreakpoint().sm === false;

  const onMessage = useCallback((message: MessageRecord) => {
    if (message.urgent) showUrgentNotice(message, (m) => followMessage(m, (to) => navigateRef.current(to)));
  }, []);
  const { unread, version } = useMessageChannel(onMessage);
  const count = unread?.count ?? 0;

  const go = (to: string) => {
    setOpen(false);
    navigate(to);
  };

  const button = (
    // the browser's own tooltip: an antd Tooltip inside the Popover would take the click the Popover needs
    <button
      type="button"
      className="coalx-bell"
      title={unreadSummary(unread)}
      aria-label={unreadSummary(unread)}
      data-testid="message-bell"
      onClick={phone ? () => navigate(MESSAGE_LIST_PATH) : undefined}
    >
      <Badge count={count} overflowCount={99} size="small" offset={[2, -2]}>
        <BellOutlined className="coalx-bell-icon" />
      </Badge>
    </button>
  );
  // a phone has no room for the panel beside the header: the bell opens 我的消息, its cards made for the screen
  if (phone) return button;

  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      placement="bottomRight"
      arrow={false}
      classNames={{ root: 'coalx-bell-popover' }}
      content={<BellPanel unread={unread} version={version} onNavigate={go} onFollow={(m) => { setOpen(false); followMessage(m, navigate); }} />}
      destroyOnHidden
    >
      {button}
    </Popover>
  );
}
