/** The enterprise's drivers and vehicles (运输信息 → 司机车辆): built by the drivers work. */
export default function DriverManager() {
  return null;
}
