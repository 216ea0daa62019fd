// placeholder of the 交易日报 page while issue 29 is built; replaced by the page itself
export default function Page() {
  return <div>交易日报</div>;
}
