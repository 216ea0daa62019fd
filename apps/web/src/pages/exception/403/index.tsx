import Exception from '@/components/Exception';

export default function Exception403Page() {
  return <Exception status={403} />;
}
