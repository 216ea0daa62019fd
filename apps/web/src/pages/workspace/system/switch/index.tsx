import SwitchPanel from '@/components/SwitchPanel';

/** 系统开关 (workspace /system/switch, admin). */
export default function SystemSwitchPage() {
  return <SwitchPanel />;
}
