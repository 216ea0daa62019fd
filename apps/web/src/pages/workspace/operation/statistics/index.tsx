// placeholder of the 运营统计 page while issue 29 is built; replaced by the page itself
export default function Page() {
  return <div>运营统计</div>;
}
