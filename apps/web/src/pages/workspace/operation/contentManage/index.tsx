import { Tabs } from 'antd';
import AnnouncementManage from './AnnouncementManage';
import BannerManage from './BannerManage';
import './content-manage.css';

/** 内容管理 (operator): announcements of every type and the home page's banners. */
export default function ContentManagePage() {
  return (
    <Tabs
      destroyOnHidden
      items={[
        { key: 'announcement', label: '公告', children: <AnnouncementManage /> },
        { key: 'banner', label: '轮播图', children: <BannerManage /> },
      ]}
    />
  );
}
